"""The ``exit_code`` oracle: the command must end with the expected code."""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.contract.models import Expected
from agentic_evals.oracles.base import (
    OracleContext,
    OracleResult,
    ProcessOutcomeLike,
    oracle_pointer,
)
from agentic_evals.reports.model import Problem


def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
    """Fail with ``EXIT_CODE`` when the exit code differs or there is none.

    A trial without an exit code (timed out, killed, never started) never
    satisfies this oracle, whatever code was expected.
    """
    del ctx  # uniform oracle signature; the exit code needs no files
    found = outcome.exit_code
    if found == expected.exit_code:
        return OracleResult()
    message = f"exit code {_describe(outcome)}, expected {expected.exit_code}"
    problem = Problem(code=codes.EXIT_CODE, message=message, oracle=oracle_pointer("exit_code"))
    return OracleResult(problems=[problem])


def _describe(outcome: ProcessOutcomeLike) -> str:
    if outcome.exit_code is not None:
        found = str(outcome.exit_code)
        if outcome.term_signal is not None:
            found += f" (signal {outcome.term_signal})"
        return found
    if outcome.timed_out:
        return "none (timed out)"
    if outcome.start_error is not None:
        return "none (the program could not start)"
    if outcome.term_signal is not None:
        return f"none (killed by signal {outcome.term_signal})"
    return "none"
