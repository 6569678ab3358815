"""Hashes, evidence identity and git metadata read without spawning git."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agentic_evals.judge import provenance
from agentic_evals.judge.provenance import canonical_json, oracle_sha256, repo_info, sha256_bytes
from agentic_evals.reports.model import RepoInfo

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_sha256_bytes() -> None:
    assert (
        sha256_bytes(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_canonical_json_is_sorted_compact_utf8() -> None:
    assert (
        canonical_json({"b": [1, 2.5], "a": "é", "c": None})
        == '{"a":"é","b":[1,2.5],"c":null}'.encode()
    )


def test_canonical_json_refuses_nan() -> None:
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


CASE = {
    "name": "c",
    "type": "positive",
    "command": ["tool", "--x"],
    "expected": {"exit_code": 0, "stdout_contains": ["ok"]},
}


def test_test_source_hash_ignores_expected_and_key_order() -> None:
    reordered = {
        "expected": {"exit_code": 1},
        "command": ["tool", "--x"],
        "type": "positive",
        "name": "c",
    }
    digest = provenance.source_sha256(CASE)
    assert digest == provenance.source_sha256(reordered)
    without = {k: v for k, v in CASE.items() if k != "expected"}
    assert digest == hashlib.sha256(canonical_json(without)).hexdigest()
    assert digest != provenance.source_sha256({**CASE, "command": ["tool", "--y"]})


def test_oracle_hash_covers_only_expected() -> None:
    digest = oracle_sha256(CASE)
    assert digest == hashlib.sha256(canonical_json(CASE["expected"])).hexdigest()
    assert digest == oracle_sha256({**CASE, "name": "other"})
    assert digest != oracle_sha256(
        {**CASE, "expected": {"exit_code": 0, "stdout_contains": ["OK"]}}
    )


def git(cwd: Path, *args: str) -> str:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(cwd),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "skill" / "fixtures").mkdir(parents=True)
    (root / "skill" / "fixtures" / "eval.json").write_text("{}")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    return root


@needs_git
def test_loose_branch_ref(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    assert repo_info(repo / "skill" / "fixtures") == RepoInfo(sha=head, ref="refs/heads/main")
    assert repo_info(repo / "skill" / "fixtures" / "eval.json") == RepoInfo(
        sha=head, ref="refs/heads/main"
    )


@needs_git
def test_packed_ref(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "tag", "-a", "v1", "-m", "annotated, so packed-refs holds a peeled line")
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert repo_info(repo) == RepoInfo(sha=head, ref="refs/heads/main")


@needs_git
def test_detached_head(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD")
    (repo / "more.txt").write_text("x")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "second")
    git(repo, "checkout", "-q", "--detach", first)
    assert repo_info(repo) == RepoInfo(sha=first, ref=None)


@needs_git
def test_linked_worktree(repo: Path, tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    (worktree / "f.txt").write_text("x")
    git(worktree, "add", ".")
    git(worktree, "commit", "-q", "-m", "on feature")
    assert (worktree / ".git").is_file()
    feature = git(worktree, "rev-parse", "HEAD")
    assert repo_info(worktree / "skill") == RepoInfo(sha=feature, ref="refs/heads/feature")
    assert repo_info(repo) == RepoInfo(sha=git(repo, "rev-parse", "HEAD"), ref="refs/heads/main")
    assert feature != git(repo, "rev-parse", "HEAD")


@needs_git
def test_no_commits_yet(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "trunk")
    assert repo_info(tmp_path) == RepoInfo(sha=None, ref="refs/heads/trunk")


def test_outside_git(tmp_path: Path) -> None:
    if any((p / ".git").exists() for p in (tmp_path, *tmp_path.parents)):
        pytest.skip("the temporary directory is itself inside a git checkout")
    assert repo_info(tmp_path) is None


def test_hand_made_gitdir_file_and_crafted_head(tmp_path: Path) -> None:
    # A submodule-style .git file, and a HEAD that tries to leave .git.
    store = tmp_path / "store"
    (store / "refs" / "heads").mkdir(parents=True)
    (store / "HEAD").write_text("ref: refs/heads/dev\n")
    (store / "refs" / "heads" / "dev").write_text("a" * 40 + "\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / ".git").write_text("gitdir: ../store\n")
    assert repo_info(work) == RepoInfo(sha="a" * 40, ref="refs/heads/dev")
    (tmp_path / "leak").write_text("b" * 40)
    (store / "HEAD").write_text("ref: refs/../../leak\n")
    assert repo_info(work) == RepoInfo(sha=None, ref="refs/../../leak")


@needs_git
def test_does_not_spawn_processes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("repo_info spawned a process")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "posix_spawn", refuse, raising=False)
    monkeypatch.setattr(os, "fork", refuse)
    info = repo_info(repo)
    assert info is not None
    assert info.ref == "refs/heads/main"
