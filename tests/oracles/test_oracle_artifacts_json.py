"""JSON pointer checks of the ``artifacts`` oracle, and JSON equality."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import artifacts, files
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.jsonvalues import json_equal

DOC = {
    "status": "ok",
    "count": 1,
    "ratio": 1.0,
    "flag": True,
    "items": [1, {"a/b": None}],
    "t~x": 2,
}


@pytest.fixture
def doc(workspace: Path) -> Path:
    path = workspace / "result.json"
    path.write_text(json.dumps(DOC))
    return path


def run(make_case: Any, make_outcome: Any, ctx: OracleContext, *checks: dict[str, Any]) -> Any:
    return artifacts.check(make_case({"artifacts": list(checks)}).expected, make_outcome(), ctx)


@pytest.mark.parametrize(
    ("pointer", "value"),
    [
        ("/status", "ok"),
        ("/count", 1),
        ("/count", 1.0),
        ("/ratio", 1),
        ("/flag", True),
        ("/items/1/a~1b", None),
        ("/t~0x", 2),
        ("", DOC),
        ("/items", [1.0, {"a/b": None}]),
    ],
)
def test_equals_passes_on_json_equal_values(
    make_case: Any, make_outcome: Any, ctx: OracleContext, doc: Path, pointer: str, value: Any
) -> None:
    check = {"path": "result.json", "json_pointer": pointer, "equals": value}
    assert run(make_case, make_outcome, ctx, check).problems == []


@pytest.mark.parametrize(
    ("pointer", "value"),
    [
        ("/count", True),
        ("/flag", 1),
        ("/status", "OK"),
        ("/count", "1"),
        ("/items", [True, {"a/b": None}]),
        ("/items/1", {"a/b": None, "extra": 1}),
        ("/items/1/a~1b", False),
    ],
)
def test_equals_fails_on_json_unequal_values(
    make_case: Any, make_outcome: Any, ctx: OracleContext, doc: Path, pointer: str, value: Any
) -> None:
    check = {"path": "result.json", "json_pointer": pointer, "equals": value}
    [problem] = run(make_case, make_outcome, ctx, check).problems
    assert problem.code == codes.ARTIFACT_MISMATCH
    assert problem.message.startswith(
        f"result.json at {pointer!r}: expected {json.dumps(value, separators=(',', ':'))}"
    )


def test_explicit_equals_null_is_checked(
    make_case: Any, make_outcome: Any, ctx: OracleContext, doc: Path
) -> None:
    check = {"path": "result.json", "json_pointer": "/status", "equals": None}
    [problem] = run(make_case, make_outcome, ctx, check).problems
    assert problem.message == "result.json at '/status': expected null, found \"ok\""


def test_mismatch_message_shortens_large_values(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "big.json").write_text(json.dumps({"v": "y" * 5_000}))
    [problem] = run(
        make_case,
        make_outcome,
        ctx,
        {"path": "big.json", "json_pointer": "/v", "equals": "x" * 5_000},
    ).problems
    assert problem.code == codes.ARTIFACT_MISMATCH
    assert len(problem.message) < 500
    assert problem.message.count("…") == 2


@pytest.mark.parametrize("extra", [{}, {"is_artifact": True}])
def test_pointer_alone_or_is_artifact_requires_resolution(
    make_case: Any, make_outcome: Any, ctx: OracleContext, doc: Path, extra: dict[str, Any]
) -> None:
    ok = {"path": "result.json", "json_pointer": "/items/0", **extra}
    assert run(make_case, make_outcome, ctx, ok).problems == []
    for pointer in ("/missing", "/items/2", "/items/-", "/status/x", "nope"):
        bad = {"path": "result.json", "json_pointer": pointer, **extra}
        [problem] = run(make_case, make_outcome, ctx, bad).problems
        assert problem.code == codes.ARTIFACT_POINTER, pointer
        assert f"pointer {pointer!r} does not resolve" in problem.message


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2", b'{"x": NaN}', b"\xff\xfe\x00"])
def test_not_json(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path, content: bytes
) -> None:
    (workspace / "bad.json").write_bytes(content)
    [problem] = run(
        make_case, make_outcome, ctx, {"path": "bad.json", "json_pointer": "/x", "equals": 1}
    ).problems
    assert problem.code == codes.ARTIFACT_NOT_JSON
    assert problem.message.startswith("bad.json is not valid JSON")


def test_json_too_large_fails_clearly(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    doc: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(files, "MAX_CONTENT_BYTES", 10)
    [problem] = run(
        make_case, make_outcome, ctx, {"path": "result.json", "json_pointer": "/count"}
    ).problems
    assert problem.code == codes.ARTIFACT_TOO_LARGE
    assert "over the 10 byte limit" in problem.message


def test_equals_artifact_compares_with_the_other_value(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path, doc: Path
) -> None:
    (workspace / "db").mkdir()
    (workspace / "db" / "row.json").write_text(json.dumps({"row": {"n": 1.0, "s": "ok"}}))
    same = {
        "path": "result.json",
        "json_pointer": "/count",
        "equals_artifact": {"path": "db/row.json", "json_pointer": "/row/n"},
    }
    result = run(make_case, make_outcome, ctx, same)
    assert result.problems == []
    assert sorted(result.artifact_hashes) == ["db/row.json", "result.json"]
    different = {**same, "equals_artifact": {"path": "db/row.json", "json_pointer": "/row/s"}}
    [problem] = run(make_case, make_outcome, ctx, different).problems
    assert problem.code == codes.ARTIFACT_MISMATCH
    assert problem.message == (
        "result.json at '/count': expected \"ok\" (from db/row.json at '/row/s'), found 1"
    )


@pytest.mark.parametrize(
    ("other", "setup", "code"),
    [
        ({"path": "none.json"}, None, codes.ARTIFACT_MISSING),
        ({"path": "other.json", "json_pointer": "/zz"}, b"{}", codes.ARTIFACT_POINTER),
        ({"path": "other.json"}, b"nope", codes.ARTIFACT_NOT_JSON),
        ({"path": "../outside/x.json"}, None, codes.ARTIFACT_UNSAFE_PATH),
    ],
)
def test_equals_artifact_problems_with_the_other_artifact(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    workspace: Path,
    doc: Path,
    other: dict[str, Any],
    setup: bytes | None,
    code: str,
) -> None:
    if setup is not None:
        (workspace / "other.json").write_bytes(setup)
    (workspace.parent / "outside" / "x.json").write_text("1")
    check = {"path": "result.json", "json_pointer": "/count", "equals_artifact": other}
    [problem] = run(make_case, make_outcome, ctx, check).problems
    assert problem.code == code
    assert problem.message.startswith("equals_artifact ")


def test_equals_artifact_is_read_once_for_all_glob_matches(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    for name, value in (("a", 1), ("b", 2), ("c", 1)):
        (workspace / f"{name}.out.json").write_text(json.dumps({"v": value}))
    (workspace / "want.json").write_text("1")
    check = {"glob": "*.out.json", "json_pointer": "/v", "equals_artifact": {"path": "want.json"}}
    result = run(make_case, make_outcome, ctx, check)
    assert [p.message.split(" ")[0] for p in result.problems] == ["b.out.json"]
    assert len(result.artifact_hashes) == 4


def test_json_equal_rules() -> None:
    assert json_equal(1, 1.0)
    assert not json_equal(1, True)
    assert not json_equal(0, False)
    assert not json_equal(True, 1.0)
    assert json_equal(False, False)
    assert not json_equal(None, 0)
    assert not json_equal("1", 1)
    assert json_equal({"a": [1, {"b": 2.0}]}, {"a": [1.0, {"b": 2}]})
    assert not json_equal({"a": [1]}, {"a": [True]})
    assert not json_equal([1, 2], [1, 2, 3])
    assert not json_equal({"a": 1}, {"b": 1})
