from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import exit_code
from agentic_evals.oracles.base import OracleContext


def test_matching_exit_code_passes(
    make_case: Callable[..., Any], make_outcome: Any, ctx: OracleContext
) -> None:
    result = exit_code.check(make_case({"exit_code": 3}).expected, make_outcome(exit_code=3), ctx)
    assert result.problems == []
    assert result.artifact_hashes == {}


def test_different_exit_code_fails_with_both_values(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    result = exit_code.check(make_case({}).expected, make_outcome(exit_code=2), ctx)
    [problem] = result.problems
    assert problem.code == codes.EXIT_CODE
    assert problem.oracle == "/expected/exit_code"
    assert problem.message == "exit code 2, expected 0"


@pytest.mark.parametrize(
    ("kwargs", "detail"),
    [
        ({"timed_out": True}, "timed out"),
        ({"start_error": "No such file"}, "could not start"),
        ({"term_signal": 9}, "killed by signal 9"),
        ({}, "none"),
    ],
)
def test_missing_exit_code_never_passes(
    make_case: Any, make_outcome: Any, ctx: OracleContext, kwargs: dict[str, Any], detail: str
) -> None:
    result = exit_code.check(make_case({}).expected, make_outcome(exit_code=None, **kwargs), ctx)
    [problem] = result.problems
    assert problem.code == codes.EXIT_CODE
    assert detail in problem.message
    assert problem.message.endswith("expected 0")


def test_signal_is_named_next_to_the_code(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    result = exit_code.check(
        make_case({}).expected, make_outcome(exit_code=-15, term_signal=15), ctx
    )
    assert result.problems[0].message == "exit code -15 (signal 15), expected 0"
