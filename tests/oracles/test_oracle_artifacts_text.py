"""Content checks of the ``artifacts`` oracle: ``content_regex`` and ``content_excludes``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import artifacts, files
from agentic_evals.oracles.base import OracleContext


def run(make_case: Any, make_outcome: Any, ctx: OracleContext, *checks: dict[str, Any]) -> Any:
    return artifacts.check(make_case({"artifacts": list(checks)}).expected, make_outcome(), ctx)


@pytest.fixture
def log(workspace: Path) -> Path:
    path = workspace / "run.log"
    path.write_bytes(b"start\nrows=42 \xff\xfe\nend\n")
    return path


def test_regex_searches_anywhere_in_decoded_text(
    make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path
) -> None:
    check = {"path": "run.log", "content_regex": r"rows=\d+"}
    assert run(make_case, make_outcome, ctx, check).problems == []
    multiline = {"path": "run.log", "content_regex": r"(?m)^end$"}
    assert run(make_case, make_outcome, ctx, multiline).problems == []


def test_regex_not_matching_fails(
    make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path
) -> None:
    [problem] = run(
        make_case, make_outcome, ctx, {"path": "run.log", "content_regex": "^rows"}
    ).problems
    assert problem.code == codes.ARTIFACT_REGEX
    assert problem.message == "run.log does not match /^rows/"


def test_invalid_regex_fails_with_reason(
    make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path
) -> None:
    [problem] = run(
        make_case, make_outcome, ctx, {"path": "run.log", "content_regex": "("}
    ).problems
    assert problem.code == codes.ARTIFACT_REGEX
    assert problem.message.startswith("invalid content_regex")


def test_undecodable_bytes_become_replacement_characters(
    make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path
) -> None:
    check = {"path": "run.log", "content_regex": "42 \ufffd\ufffd"}
    assert run(make_case, make_outcome, ctx, check).problems == []


def test_content_excludes(make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path) -> None:
    assert (
        run(make_case, make_outcome, ctx, {"path": "run.log", "content_excludes": "ERROR"}).problems
        == []
    )
    [problem] = run(
        make_case, make_outcome, ctx, {"path": "run.log", "content_excludes": "rows="}
    ).problems
    assert problem.code == codes.ARTIFACT_EXCLUDED
    assert problem.message == "run.log contains forbidden 'rows='"


def test_both_conditions_are_judged_independently(
    make_case: Any, make_outcome: Any, ctx: OracleContext, log: Path
) -> None:
    check = {
        "path": "run.log",
        "content_regex": "absent",
        "content_excludes": "start",
        "min_bytes": 1,
    }
    result = run(make_case, make_outcome, ctx, check)
    assert [p.code for p in result.problems] == [codes.ARTIFACT_REGEX, codes.ARTIFACT_EXCLUDED]


def test_text_checks_on_too_large_file_fail_closed_once(
    make_case: Any,
    make_outcome: Any,
    ctx: OracleContext,
    log: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(files, "MAX_CONTENT_BYTES", 4)
    check = {"path": "run.log", "content_regex": "x", "content_excludes": "ERROR"}
    result = run(make_case, make_outcome, ctx, check)
    assert [p.code for p in result.problems] == [codes.ARTIFACT_TOO_LARGE]
    # Hashing is chunked and has no size limit.
    assert "run.log" in result.artifact_hashes
