"""The registry runs every oracle kind in order; groups tell output from readback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.contract.models import Expected
from agentic_evals.oracles import ORACLE_KINDS, evaluate, oracle_group
from agentic_evals.oracles.base import OracleContext, oracle_pointer
from agentic_evals.oracles.registry import ORACLES, has_checks
from agentic_evals.reports.model import Problem


def test_every_expected_key_has_an_oracle() -> None:
    assert set(ORACLE_KINDS) == set(Expected.model_fields)
    assert ORACLE_KINDS[0] == "exit_code"


def test_evaluate_collects_every_kind_in_order(
    make_case: Any, make_outcome: Any, ctx: OracleContext, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("x")
    case = make_case(
        {
            "exit_code": 0,
            "stdout_contains": ["hi"],
            "stderr_contains": ["warn"],
            "stdout_excludes": ["boom"],
            "stderr_excludes": ["fatal"],
            "artifacts": [{"path": "a.txt", "min_bytes": 5}, {"path": "missing"}],
        }
    )
    outcome = make_outcome(exit_code=1, stdout=b"boom", stderr=b"fatal")
    result = evaluate(case, outcome, ctx)
    assert [(p.code, p.oracle) for p in result.problems] == [
        (codes.EXIT_CODE, "/expected/exit_code"),
        (codes.STDOUT_MISSING, "/expected/stdout_contains/0"),
        (codes.STDERR_MISSING, "/expected/stderr_contains/0"),
        (codes.STDOUT_FORBIDDEN, "/expected/stdout_excludes/0"),
        (codes.STDERR_FORBIDDEN, "/expected/stderr_excludes/0"),
        (codes.ARTIFACT_TOO_SMALL, "/expected/artifacts/0"),
        (codes.ARTIFACT_MISSING, "/expected/artifacts/1"),
    ]
    assert list(result.artifact_hashes) == ["a.txt"]
    assert [p.code for p in result.in_group("output")] == [
        codes.STDOUT_MISSING,
        codes.STDERR_MISSING,
        codes.STDOUT_FORBIDDEN,
        codes.STDERR_FORBIDDEN,
    ]
    assert [p.code for p in result.in_group("readback")] == [
        codes.ARTIFACT_TOO_SMALL,
        codes.ARTIFACT_MISSING,
    ]
    assert [p.code for p in result.in_group("exit_code")] == [codes.EXIT_CODE]


def test_a_clean_trial_has_no_problems(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    case = make_case({"stdout_contains": ["ok"], "stdout_excludes": ["error"]})
    assert evaluate(case, make_outcome(stdout=b"ok"), ctx).problems == []


@pytest.mark.parametrize(
    ("pointer", "group"),
    [
        ("/expected/exit_code", "exit_code"),
        ("/expected/stdout_contains/0", "output"),
        ("/expected/stderr_excludes/3", "output"),
        ("/expected/artifacts/2", "readback"),
        ("/expected/workspace_changes", "readback"),
        ("/expected/unknown", None),
        ("/command/0", None),
        ("not a pointer", None),
        (None, None),
    ],
)
def test_oracle_group_reads_the_pointer(pointer: str | None, group: str | None) -> None:
    assert oracle_group(Problem(code="X", message="m", oracle=pointer)) == group


def test_oracle_pointer_escapes_parts() -> None:
    assert oracle_pointer("artifacts", 2) == "/expected/artifacts/2"
    assert oracle_pointer("a/b", "c~d") == "/expected/a~1b/c~0d"


@pytest.mark.parametrize("kind", [kind for kind in ORACLE_KINDS if kind != "exit_code"])
def test_a_kind_without_checks_is_skipped_because_its_oracle_finds_nothing(
    kind: str, make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    case = make_case({"exit_code": 0})
    assert not has_checks(case.expected, kind) and has_checks(case.expected, "exit_code")
    # What skipping it leaves out: its oracle, run on a failing trial, finds nothing.
    failing = make_outcome(exit_code=3, stdout=b"boom Error", stderr=b"fatal")
    assert ORACLES[kind](case.expected, failing, ctx).problems == []


def test_a_kind_with_checks_is_run(make_case: Any, ctx: OracleContext) -> None:
    case = make_case({"exit_code": 0, "stdout_contains": ["x"], "workspace_changes": {}})
    assert has_checks(case.expected, "stdout_contains")
    assert has_checks(case.expected, "workspace_changes")  # an empty object still checks
