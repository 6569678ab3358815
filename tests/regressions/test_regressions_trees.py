"""The broken tree: a git_ref checked out by git archive, and what a copy takes and leaves."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from regression_helpers import TALLY, structural, tally_fixture, tally_skill, tree_state

from agentic_evals.regressions.tree_copy import copy_tree, remove_tree
from agentic_evals.regressions.verify import VerifyOptions, verify_skill

BUGGY = TALLY.replace("$1 + $2", "$1 - $2")


def git(repo: Path, *args: str) -> str:
    ran = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return ran.stdout.strip()


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A repository whose skill folder ``skills/tally`` had the bug at the returned commit."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    repo = tmp_path / "repo"
    skill = tally_skill(repo / "skills", name="tally", fixture=tally_fixture(name="old-check"))
    (skill / "tally.sh").write_text(BUGGY)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "tally, with the bug")
    buggy = git(repo, "rev-parse", "HEAD")
    (skill / "tally.sh").write_text(TALLY)
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(tally_fixture()))
    git(repo, "commit", "-qam", "fix the total; guard it with the case adds")
    return skill, buggy


def test_a_git_ref_proof_runs_the_current_guard_on_the_old_tree(
    history: tuple[Path, str], tmp_path: Path
) -> None:
    skill, buggy = history
    # The guard was added with the fix: at the old commit the fixture has no case adds.
    tally_skill(skill.parent, structural(fail_before_fix={"git_ref": buggy}), name="tally")
    repo = skill.parent.parent
    state, refs, worktrees = tree_state(skill), git(repo, "show-ref"), git(repo, "worktree", "list")
    outcome = verify_skill(skill, VerifyOptions())
    assert outcome.verify is not None, [f.render() for f in outcome.load.findings]
    [result] = outcome.verify.results
    assert (result.verdict, result.proof) == ("verified", "git_ref"), result.detail
    assert result.verification is not None and result.verification.proof == "git_ref"
    assert tree_state(skill) == state
    assert (git(repo, "show-ref"), git(repo, "worktree", "list")) == (refs, worktrees)
    assert [p for p in os.listdir(tmp_path) if p.startswith("agentic-evals-broken-")] == []


def test_a_commit_without_the_bug_or_unknown_is_never_verified(
    history: tuple[Path, str],
) -> None:
    skill, _ = history
    fixed = git(skill, "rev-parse", "HEAD")
    unknown = "0" * 40
    tally_skill(
        skill.parent,
        structural("fixed", fail_before_fix={"git_ref": fixed}),
        structural("unknown", fail_before_fix={"git_ref": unknown}),
        name="tally",
    )
    outcome = verify_skill(skill, VerifyOptions())
    assert outcome.verify is not None
    fixed_result, unknown_result = outcome.verify.results
    assert (fixed_result.reason_code, fixed_result.unprotected) == ("GUARD_NOT_CAUGHT", True)
    assert unknown_result.reason_code == "PROOF_NOT_APPLICABLE"
    assert unknown_result.detail.startswith(f"the skill folder at {unknown} cannot be read")


def test_a_git_ref_outside_a_repository_is_not_applicable(tmp_path: Path) -> None:
    skill = tally_skill(tmp_path, structural(fail_before_fix={"git_ref": "a" * 40}))
    outcome = verify_skill(skill, VerifyOptions())
    assert outcome.verify is not None
    [result] = outcome.verify.results
    assert result.reason_code == "PROOF_NOT_APPLICABLE" and "not a git repository" in result.detail


def test_a_copy_keeps_files_modes_and_links_and_leaves_caches_and_specials(
    tmp_path: Path,
) -> None:
    source = tmp_path / "skill"
    (source / "bin").mkdir(parents=True)
    (source / "bin" / "run.sh").write_text("#!/bin/sh\n")
    (source / "bin" / "run.sh").chmod(0o750)
    (source / "link").symlink_to("bin/run.sh")
    (source / "outside").symlink_to("/etc/hostname")
    for cache in (".git", "__pycache__", ".mypy_cache", "bin/__pycache__"):
        (source / cache).mkdir()
        (source / cache / "x").write_text("cached")
    venv = source / ".venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    os.mkfifo(source / "pipe")
    copied = copy_tree(source, tmp_path / "copy")
    target = tmp_path / "copy"
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*")) == [
        ".venv",
        "bin",
        "bin/run.sh",
        "link",
        "outside",
    ]
    assert (target / "bin" / "run.sh").stat().st_mode & 0o777 == 0o750
    assert os.readlink(target / "link") == "bin/run.sh"
    assert os.readlink(target / "outside") == "/etc/hostname"
    assert os.readlink(target / ".venv") == str(venv.resolve())  # linked, not copied
    assert copied.linked == [".venv"] and copied.skipped == ["pipe (special file)"]
    remove_tree(target)
    assert not target.exists() and (venv / "pyvenv.cfg").is_file()  # the link only is removed


def test_a_read_only_broken_tree_is_removed(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "locked").mkdir(parents=True)
    (tree / "locked" / "file").write_text("x")
    (tree / "locked").chmod(0o500)
    remove_tree(tree)
    assert not tree.exists()


def test_a_proof_whose_fixture_is_a_sibling_of_fixtures_keeps_its_guard(tmp_path: Path) -> None:
    # retained_fixture "../agentic_eval.json": the guard lives at the skill root.
    skill = tally_skill(
        tmp_path,
        structural(retained_fixture="../root_eval.json"),
        files={"root_eval.json": tally_fixture() | {"cases": [tally_case_at_root()]}},
    )
    outcome = verify_skill(skill, VerifyOptions())
    assert outcome.verify is not None
    assert outcome.verify.results[0].verdict == "verified", outcome.verify.results[0].detail


def tally_case_at_root() -> dict[str, object]:
    [case] = tally_fixture()["cases"]
    return {**case, "command": ["bash", "tally.sh", "2", "3"]}
