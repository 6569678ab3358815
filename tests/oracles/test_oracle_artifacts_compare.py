"""``equals_artifact`` with ``compare: json|bytes|text``, and ``is_artifact: false``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import artifacts
from agentic_evals.oracles.base import OracleContext


def run(make_case: Any, make_outcome: Any, ctx: OracleContext, *checks: dict[str, Any]) -> Any:
    return artifacts.check(make_case({"artifacts": list(checks)}).expected, make_outcome(), ctx)


def problems(result: Any) -> list[tuple[str, str]]:
    return [(p.code, p.oracle) for p in result.problems]


def write(workspace: Path, name: str, data: bytes) -> None:
    (workspace / name).write_bytes(data)


def compare(how: str, path: str = "out.bin", other: str = "golden.bin") -> dict[str, Any]:
    return {"path": path, "equals_artifact": {"path": other, "compare": how}}


def test_bytes_pass_on_an_identical_copy(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    data = bytes(range(256)) * 1000  # not JSON, not UTF-8
    write(workspace, "out.bin", data)
    write(workspace, "golden.bin", data)
    result = run(make_case, make_outcome, ctx, compare("bytes"))
    assert result.problems == []
    assert set(result.artifact_hashes) == {"out.bin", "golden.bin"}


@pytest.mark.parametrize("other", [b"abc\n", b"abc", b"abd\r\n", b""])
def test_bytes_fail_on_any_difference(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path, other: bytes
) -> None:
    write(workspace, "out.bin", b"abc\r\n")
    write(workspace, "golden.bin", other)
    result = run(make_case, make_outcome, ctx, compare("bytes"))
    assert problems(result) == [(codes.ARTIFACT_MISMATCH, "/expected/artifacts/0")]
    assert "is not byte-identical to golden.bin" in result.problems[0].message


def test_text_ignores_line_endings_only(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    write(workspace, "out.txt", "naïve\r\nline two\rend\n".encode())
    write(workspace, "golden.txt", "naïve\nline two\nend\n".encode())
    check = compare("text", "out.txt", "golden.txt")
    assert run(make_case, make_outcome, ctx, check).problems == []
    write(workspace, "golden.txt", "naïve\nline 2\nend\n".encode())
    result = run(make_case, make_outcome, ctx, check)
    assert problems(result) == [(codes.ARTIFACT_MISMATCH, "/expected/artifacts/0")]
    assert "line 2 is 'line two\\n', expected 'line 2\\n'" in result.problems[0].message


def test_text_tells_a_missing_final_line(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    write(workspace, "out.txt", b"a\nb\n")
    write(workspace, "golden.txt", b"a\nb\nc\n")
    result = run(make_case, make_outcome, ctx, compare("text", "out.txt", "golden.txt"))
    assert [p.code for p in result.problems] == [codes.ARTIFACT_MISMATCH]
    assert "it ends after line 2; the reference goes on" in result.problems[0].message


@pytest.mark.parametrize(
    ("mine", "theirs", "oracle"),
    [
        (b"\xff\xfe", b"ok", "/expected/artifacts/0"),
        (b"ok", b"\xff", "/expected/artifacts/0/equals_artifact"),
    ],
)
def test_text_needs_utf8_on_both_sides(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    mine: bytes,
    theirs: bytes,
    oracle: str,
) -> None:
    write(workspace, "out.txt", mine)
    write(workspace, "golden.txt", theirs)
    result = run(make_case, make_outcome, ctx, compare("text", "out.txt", "golden.txt"))
    assert problems(result) == [(codes.ARTIFACT_NOT_TEXT, oracle)]


@pytest.mark.parametrize("how", ["bytes", "text"])
@pytest.mark.parametrize(
    ("present", "oracle"),
    [
        ("out.bin", "/expected/artifacts/0/equals_artifact"),  # the reference's fault
        ("golden.bin", "/expected/artifacts/0"),  # the artifact fails before any comparison
    ],
)
def test_a_missing_side_is_named(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    how: str,
    present: str,
    oracle: str,
) -> None:
    write(workspace, present, b"x")
    result = run(make_case, make_outcome, ctx, compare(how))
    assert problems(result) == [(codes.ARTIFACT_MISSING, oracle)]


def test_json_stays_the_default(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    write(workspace, "out.json", json.dumps({"a": 1.0, "b": [True]}).encode())
    write(workspace, "golden.json", b'{"b": [true], "a": 1}')  # equal JSON, other bytes
    check = {"path": "out.json", "json_pointer": "", "equals_artifact": {"path": "golden.json"}}
    assert run(make_case, make_outcome, ctx, check).problems == []
    as_bytes = compare("bytes", "out.json", "golden.json")
    assert [p.code for p in run(make_case, make_outcome, ctx, as_bytes).problems] == [
        codes.ARTIFACT_MISMATCH
    ]


@pytest.mark.parametrize(
    ("pointer", "failure"),
    [
        ("/missing", None),
        ("/items/5", None),
        ("/status/deeper", None),
        ("/status", codes.ARTIFACT_POINTER_PRESENT),
        ("/items/0", codes.ARTIFACT_POINTER_PRESENT),
        ("", codes.ARTIFACT_POINTER_PRESENT),
    ],
)
def test_is_artifact_false_means_the_pointer_must_not_resolve(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    pointer: str,
    failure: str | None,
) -> None:
    write(workspace, "r.json", json.dumps({"status": "ok", "items": [None]}).encode())
    check = {"path": "r.json", "json_pointer": pointer, "is_artifact": False}
    found = [p.code for p in run(make_case, make_outcome, ctx, check).problems]
    assert found == ([] if failure is None else [failure])


def test_is_artifact_false_still_needs_the_artifact_and_valid_json(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    check = {"path": "r.json", "json_pointer": "/x", "is_artifact": False}
    assert [p.code for p in run(make_case, make_outcome, ctx, check).problems] == [
        codes.ARTIFACT_MISSING
    ]
    write(workspace, "r.json", b"not json")
    assert [p.code for p in run(make_case, make_outcome, ctx, check).problems] == [
        codes.ARTIFACT_NOT_JSON
    ]


def test_is_artifact_true_means_the_pointer_resolves(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    write(workspace, "r.json", b'{"a": null}')
    for pointer, found in (("/a", []), ("/b", [codes.ARTIFACT_POINTER])):
        check = {"path": "r.json", "json_pointer": pointer, "is_artifact": True}
        assert [p.code for p in run(make_case, make_outcome, ctx, check).problems] == found
