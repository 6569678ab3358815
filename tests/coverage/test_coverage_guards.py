"""Which cases can guard a seam: an oracle that can fail, a required case."""

from __future__ import annotations

from typing import Any

from agentic_evals.contract.models import Case
from agentic_evals.coverage.guards import weak_reasons
from agentic_evals.evidence.checks import case_checks, oracles_that_can_fail


def make(expected: dict[str, Any], **fields: Any) -> Case:
    body = {"name": "c", "type": "positive", "command": ["prog"], "expected": expected, **fields}
    return Case.model_validate(body, strict=True)


def failing(case: Case) -> tuple[str, ...]:
    return oracles_that_can_fail(case_checks(case))


def test_blocked_markers_are_no_oracle() -> None:
    case = make(
        {"exit_code": 0}, blocked_when_stdout_contains=["quota"], infra_blocked_when=["503"]
    )
    assert failing(case) == ()
    assert weak_reasons(case, []) == ["NO_FAILING_ORACLE"]


def test_an_optional_case_cannot_gate_even_with_oracles() -> None:
    case = make({"exit_code": 0, "stdout_contains": ["ok"]}, required=False)
    assert weak_reasons(case, failing(case)) == ["NOT_REQUIRED_CASE"]
    bare = make({"exit_code": 0}, required=False)
    assert weak_reasons(bare, []) == ["NO_FAILING_ORACLE", "NOT_REQUIRED_CASE"]
