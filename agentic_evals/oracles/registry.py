"""The oracle kinds and the single entry point that runs them all.

Kinds run in the order of ``ORACLES`` (the order of the ``expected`` keys in
the fixture format), so problems always come out in the same order.
``workspace_changes`` judges the changes the runner recorded in the trial's
workspace copy (``OracleContext.workspace_changes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from agentic_evals import clock, codes
from agentic_evals.contract.models import Case, Expected
from agentic_evals.limits import MAX_ORACLE_SECONDS
from agentic_evals.oracles import artifacts, exit_code, streams, workspace
from agentic_evals.oracles.base import (
    OracleContext,
    OracleResult,
    ProcessOutcomeLike,
    oracle_pointer,
    out_of_time,
)
from agentic_evals.reports.model import Problem

Oracle = Callable[[Expected, ProcessOutcomeLike, OracleContext], OracleResult]
"""An oracle: grades one finished trial against a case's ``expected``."""

ORACLES: Mapping[str, Oracle] = MappingProxyType(
    {
        "exit_code": exit_code.check,
        "stdout_contains": streams.contains_oracle("stdout"),
        "stderr_contains": streams.contains_oracle("stderr"),
        "stdout_excludes": streams.excludes_oracle("stdout"),
        "stderr_excludes": streams.excludes_oracle("stderr"),
        "stdout_regex": streams.regex_oracle("stdout"),
        "stderr_regex": streams.regex_oracle("stderr"),
        "artifacts": artifacts.check,
        "workspace_changes": workspace.check,
    }
)
"""Oracle kind (the ``expected`` key) to the oracle that judges it."""

ORACLE_KINDS: tuple[str, ...] = tuple(ORACLES)
"""The ``expected`` keys judged by oracles, in evaluation order."""


def has_checks(expected: Expected, kind: str) -> bool:
    """Whether ``expected`` checks anything of ``kind``; an oracle without checks finds nothing.

    The exit code is always checked; every other kind is a list or an optional
    object, checked when not empty.
    """
    return kind == "exit_code" or bool(getattr(expected, kind))


def evaluate(case: Case, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
    """Run every oracle of ``case`` on one finished trial.

    Oracles see the raw captured output; nothing here is redacted. The result
    is the same whatever the trial's timeout or start status: deciding what
    those mean is ``agentic_evals.judge.cases``'s job.

    Args:
        case: The case whose ``expected`` oracles are run.
        outcome: What the process layer observed.
        ctx: Where artifacts are and what may be read.

    Returns:
        Every problem found, in kind order, and the hashes of the artifacts read.
    """
    result = OracleResult()
    if ctx.deadline is None:
        ctx = replace(ctx, deadline=clock.monotonic() + MAX_ORACLE_SECONDS)
    expected = case.expected
    for kind, oracle in ORACLES.items():
        if not has_checks(expected, kind):
            continue
        late = out_of_time(ctx, oracle_pointer(kind))
        if late is not None:
            result.extend(late)
        else:
            result.extend(oracle(expected, outcome, ctx))
        if any(problem.code == codes.ORACLE_TIMEOUT for problem in result.problems):
            break  # the rest of the checks were not evaluated: one problem says so
    for name, captured in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
        # A stream the runner could not keep (a full TMPDIR): the trial fails, saying why.
        why = getattr(captured, "problem", None)
        if why:
            message = f"{name} could not be kept whole ({why}); the trial is not judged on it"
            result.problems.append(Problem(code=codes.STREAM_TRUNCATED, message=message))
    return result
