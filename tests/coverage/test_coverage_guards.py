"""Which cases can guard a seam: an oracle that can fail, a required case."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_evals.contract.models import Case
from agentic_evals.coverage.guards import failing_oracles, weak_reasons


def make(expected: dict[str, Any], **fields: Any) -> Case:
    body = {"name": "c", "type": "positive", "command": ["prog"], "expected": expected, **fields}
    return Case.model_validate(body, strict=True)


@pytest.mark.parametrize(
    ("expected", "fields", "oracles"),
    [
        ({"exit_code": 0}, {}, []),
        ({"exit_code": 0}, {"type": "negative"}, []),
        ({"exit_code": 0, "stdout_contains": [""]}, {}, []),
        ({"exit_code": 0, "stdout_excludes": []}, {}, []),
        ({"exit_code": 0, "workspace_changes": {}}, {}, []),
        ({"exit_code": 2}, {"type": "negative"}, ["exit_code"]),
        ({"exit_code": 0, "stdout_contains": ["ok"]}, {}, ["stdout_contains"]),
        ({"exit_code": 0, "stderr_contains": ["warned"]}, {}, ["stderr_contains"]),
        ({"exit_code": 0, "stdout_excludes": ["stale"]}, {}, ["stdout_excludes"]),
        ({"exit_code": 0, "stderr_excludes": ["Traceback"]}, {}, ["stderr_excludes"]),
        ({"exit_code": 0, "artifacts": [{"path": "out.json"}]}, {}, ["artifacts"]),
        ({"exit_code": 0, "workspace_changes": {"only": True}}, {}, ["workspace_changes"]),
        ({"exit_code": 0}, {"must_exercise": ["prog"]}, ["must_exercise"]),
        ({"exit_code": 0}, {"readback": True}, ["readback"]),
        (
            {"exit_code": 1, "stdout_contains": ["denied"]},
            {"type": "adversarial"},
            ["exit_code", "stdout_contains"],
        ),
    ],
)
def test_an_oracle_that_can_fail(
    expected: dict[str, Any], fields: dict[str, Any], oracles: list[str]
) -> None:
    assert failing_oracles(make(expected, **fields)) == oracles


def test_blocked_markers_are_no_oracle() -> None:
    case = make(
        {"exit_code": 0}, blocked_when_stdout_contains=["quota"], infra_blocked_when=["503"]
    )
    assert failing_oracles(case) == []
    assert weak_reasons(case, []) == ["NO_FAILING_ORACLE"]


def test_an_optional_case_cannot_gate_even_with_oracles() -> None:
    case = make({"exit_code": 0, "stdout_contains": ["ok"]}, required=False)
    assert weak_reasons(case, failing_oracles(case)) == ["NOT_REQUIRED_CASE"]
    bare = make({"exit_code": 0}, required=False)
    assert weak_reasons(bare, []) == ["NO_FAILING_ORACLE", "NOT_REQUIRED_CASE"]
