"""Presence, size, hash and glob checks of the ``artifacts`` oracle."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import artifacts
from agentic_evals.oracles.base import OracleContext


def run(make_case: Any, make_outcome: Any, ctx: OracleContext, *checks: dict[str, Any]) -> Any:
    return artifacts.check(make_case({"artifacts": list(checks)}).expected, make_outcome(), ctx)


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def test_present_file_satisfies_exists_and_is_hashed(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "out").mkdir()
    (workspace / "out" / "a.txt").write_bytes(b"hello")
    result = run(make_case, make_outcome, ctx, {"path": "out/./a.txt", "exists": True})
    assert result.problems == []
    assert result.artifact_hashes == {"out/a.txt": sha(b"hello")}


def test_missing_file_fails_exists(make_case: Any, make_outcome: Any, ctx: OracleContext) -> None:
    result = run(
        make_case,
        make_outcome,
        ctx,
        {"path": "x.json", "absent": True},
        {"path": "nope", "exists": True},
    )
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_MISSING
    assert problem.oracle == "/expected/artifacts/1"
    assert problem.message == "nope does not exist"
    assert result.artifact_hashes == {}


def test_bare_path_means_exists(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "here").write_bytes(b"")
    result = run(make_case, make_outcome, ctx, {"path": "here"}, {"path": "gone"})
    assert [(p.code, p.oracle) for p in result.problems] == [
        (codes.ARTIFACT_MISSING, "/expected/artifacts/1")
    ]
    assert list(result.artifact_hashes) == ["here"]


@pytest.mark.parametrize("check", [{"absent": True}, {"exists": False}])
def test_absent_or_exists_false_fail_when_present(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path, check: dict[str, Any]
) -> None:
    (workspace / "lock").write_bytes(b"1")
    result = run(make_case, make_outcome, ctx, {"path": "lock", **check})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_PRESENT
    assert problem.message == "lock exists but must be absent"
    assert result.artifact_hashes == {"lock": sha(b"1")}


@pytest.mark.parametrize("check", [{"absent": True}, {"exists": False}])
def test_absent_or_exists_false_pass_when_missing(
    make_case: Any, make_outcome: Any, ctx: OracleContext, check: dict[str, Any]
) -> None:
    assert run(make_case, make_outcome, ctx, {"path": "lock", **check}).problems == []


def test_absent_also_refuses_a_directory(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "cache").mkdir()
    result = run(make_case, make_outcome, ctx, {"path": "cache", "absent": True})
    assert [p.code for p in result.problems] == [codes.ARTIFACT_PRESENT]


@pytest.mark.parametrize(
    "condition",
    [
        {"min_bytes": 1},
        {"sha256": "0" * 64},
        {"json_pointer": "/a"},
        {"content_regex": "x"},
        {"content_excludes": "x"},
        {"is_artifact": True},
    ],
)
def test_every_content_condition_on_a_missing_file_is_missing(
    make_case: Any, make_outcome: Any, ctx: OracleContext, condition: dict[str, Any]
) -> None:
    result = run(make_case, make_outcome, ctx, {"path": "gone.json", **condition})
    assert [(p.code, p.message) for p in result.problems] == [
        (codes.ARTIFACT_MISSING, "gone.json does not exist")
    ]


def test_exists_true_accepts_a_directory_but_content_checks_do_not(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "d").mkdir()
    result = run(
        make_case, make_outcome, ctx, {"path": "d", "exists": True}, {"path": "d", "min_bytes": 0}
    )
    [problem] = result.problems
    assert problem.oracle == "/expected/artifacts/1"
    assert problem.code == codes.ARTIFACT_MISSING
    assert "is a directory" in problem.message


def test_fifo_is_never_opened(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    os.mkfifo(workspace / "pipe")
    # Reading a FIFO nobody writes to would hang: it must be refused, not read.
    result = run(make_case, make_outcome, ctx, {"path": "pipe", "content_regex": "."})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_MISSING
    assert "not a regular file" in problem.message
    assert result.artifact_hashes == {}


def test_min_bytes(make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path) -> None:
    (workspace / "r.bin").write_bytes(b"12345")
    ok = run(make_case, make_outcome, ctx, {"path": "r.bin", "min_bytes": 5})
    assert ok.problems == []
    small = run(make_case, make_outcome, ctx, {"path": "r.bin", "min_bytes": 6})
    [problem] = small.problems
    assert problem.code == codes.ARTIFACT_TOO_SMALL
    assert problem.message == "r.bin has 5 bytes, expected at least 6"


@pytest.mark.parametrize(
    "form",
    [
        lambda h: h,
        lambda h: h.upper(),
        lambda h: "sha256:" + h,
        lambda h: "sha256:" + h.upper(),
    ],
)
def test_sha256_accepts_prefixed_or_bare_hex_in_any_case(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path, form: Any
) -> None:
    (workspace / "f").write_bytes(b"payload")
    digest = hashlib.sha256(b"payload").hexdigest()
    assert run(make_case, make_outcome, ctx, {"path": "f", "sha256": form(digest)}).problems == []


def test_sha256_mismatch(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "f").write_bytes(b"payload")
    result = run(make_case, make_outcome, ctx, {"path": "f", "sha256": "A" * 64})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_HASH
    assert problem.message == f"f has {sha(b'payload')}, expected sha256:{'a' * 64}"


def test_large_file_is_hashed_in_chunks(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = os.urandom(3 * 1024 * 1024 + 7)
    (workspace / "big").write_bytes(data)
    reads: list[int] = []
    real_read = os.read

    def spy(fd: int, n: int) -> bytes:
        reads.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", spy)
    result = run(make_case, make_outcome, ctx, {"path": "big", "sha256": sha(data)})
    assert result.problems == []
    assert max(reads) <= 1024 * 1024
    assert len(reads) >= 4


def test_glob_every_match_must_satisfy(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "logs" / "deep").mkdir(parents=True)
    (workspace / "logs" / "a.log").write_bytes(b"12345")
    (workspace / "logs" / "b.log").write_bytes(b"1")
    (workspace / "logs" / "deep" / "c.log").write_bytes(b"1")
    (workspace / "logs" / "notes.txt").write_bytes(b"1")
    result = run(make_case, make_outcome, ctx, {"glob": "logs/*.log", "min_bytes": 2})
    assert [(p.code, p.message) for p in result.problems] == [
        (codes.ARTIFACT_TOO_SMALL, "logs/b.log has 1 bytes, expected at least 2")
    ]
    assert sorted(result.artifact_hashes) == ["logs/a.log", "logs/b.log"]


def test_glob_double_star_spans_directories(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "a" / "b").mkdir(parents=True)
    (workspace / "top.json").write_text("{}")
    (workspace / "a" / "b" / "deep.json").write_text("{}")
    (workspace / ".hidden.json").write_text("{}")
    result = run(make_case, make_outcome, ctx, {"glob": "**/*.json", "exists": True})
    assert result.problems == []
    assert sorted(result.artifact_hashes) == [".hidden.json", "a/b/deep.json", "top.json"]


def test_glob_without_match_fails(make_case: Any, make_outcome: Any, ctx: OracleContext) -> None:
    result = run(make_case, make_outcome, ctx, {"glob": "out/*.json", "exists": True})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_NO_MATCH
    assert problem.message == "glob 'out/*.json' matched nothing"
    assert problem.oracle == "/expected/artifacts/0"


def test_glob_with_absent_means_no_match_may_exist(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "core.1").write_bytes(b"x")
    result = run(make_case, make_outcome, ctx, {"glob": "core.*", "absent": True})
    assert [p.code for p in result.problems] == [codes.ARTIFACT_PRESENT]


def test_check_with_neither_path_nor_glob_fails(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    result = run(make_case, make_outcome, ctx, {"exists": True})
    [problem] = result.problems
    assert problem.code == codes.ARTIFACT_NO_MATCH
    assert "neither a path nor a glob" in problem.message


def test_unreadable_content_is_reported(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (workspace / "f").write_bytes(b"data")
    real_open = os.open

    def deny(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(path).name == "f":
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    result = run(
        make_case, make_outcome, ctx, {"path": "f", "sha256": "0" * 64, "content_regex": "d"}
    )
    assert [p.code for p in result.problems] == [codes.ARTIFACT_UNREADABLE]
    assert "Permission denied" in result.problems[0].message
    assert result.artifact_hashes == {}
