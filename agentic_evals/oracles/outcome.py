"""One trial's outcome, from what the process did and what its checks found (SPEC 3.6). Pure.

First match wins: a timeout FAILs; a program that could not start FAILs
(``EXEC_FAILED``; check problems are dropped, since there was no run to
check); escaped descendants FAIL; a blocked marker (or a check that could not
be judged without a tracer, ``TRACE_UNAVAILABLE``) makes it BLOCKED; other
check problems FAIL, or make it INFRA_BLOCKED when an ``infra_blocked_when``
marker was seen; else PASS. The verdict lists every problem found, not just
the deciding one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleResult, ProcessOutcomeLike, StreamLike
from agentic_evals.reports.model import Problem, TrialOutcome


class TrialVerdict(NamedTuple):
    """The outcome of one trial and every problem found."""

    outcome: TrialOutcome
    problems: list[Problem]


def trial_outcome(
    case: Case,
    process: ProcessOutcomeLike,
    oracles: OracleResult | None = None,
    *,
    extra_problems: Sequence[Problem] = (),
) -> TrialVerdict:
    """Decide one trial (see the module docstring for the rules).

    Markers are looked for in stdout and stderr; empty markers are ignored
    (they would match every trial).

    Args:
        case: The case (its ``blocked_when_stdout_contains`` and
            ``infra_blocked_when`` markers).
        process: What the process layer observed.
        oracles: What the oracles found; None when they were not run.
        extra_problems: Problems of the other post-run checks (must_exercise,
            workspace changes); judged like oracle problems.
    """
    start_failed = process.start_error is not None
    problems = _process_problems(process)
    blocked = _first_marker(process, case.blocked_when_stdout_contains)
    if blocked is not None:
        message = f"blocked marker {blocked[0]!r} seen in {blocked[1]}"
        problems.append(Problem(code=codes.BLOCKED_MARKER, message=message))
    checks = [] if start_failed else [*(oracles.problems if oracles else ()), *extra_problems]
    problems.extend(checks)
    # Without a tracer must_exercise cannot be judged: that blocks, it does not fail.
    untraced = any(p.code == codes.TRACE_UNAVAILABLE for p in checks)
    failing = [p for p in checks if p.code != codes.TRACE_UNAVAILABLE]
    infra = _first_marker(process, case.infra_blocked_when) if failing else None
    if infra is not None:
        message = f"infrastructure marker {infra[0]!r} seen in {infra[1]}: failure blamed on it"
        problems.append(Problem(code=codes.INFRA_BLOCKED, message=message))
    outcome: TrialOutcome
    if process.timed_out or start_failed or process.orphan_pids:
        outcome = "FAIL"
    elif blocked is not None or untraced:
        outcome = "BLOCKED"
    elif failing:
        outcome = "INFRA_BLOCKED" if infra is not None else "FAIL"
    else:
        outcome = "PASS"
    return TrialVerdict(outcome, problems)


def _process_problems(process: ProcessOutcomeLike) -> list[Problem]:
    """Return the timeout, start and orphan problems of a trial."""
    problems: list[Problem] = []
    if process.timed_out:
        message = "the command did not finish within its timeout; its process tree was stopped"
        problems.append(Problem(code=codes.TIMEOUT, message=message))
    if process.start_error is not None:
        message = f"the program could not start: {process.start_error}"
        problems.append(Problem(code=codes.EXEC_FAILED, message=message))
    if process.orphan_pids:
        pids = ", ".join(str(pid) for pid in process.orphan_pids)
        message = f"descendants were still alive after teardown and were killed: pids {pids}"
        problems.append(Problem(code=codes.ORPHAN_PROCESS, message=message))
    return problems


def _first_marker(process: ProcessOutcomeLike, markers: Sequence[str]) -> tuple[str, str] | None:
    """Return the first non-empty marker seen, with the stream it was seen in."""
    streams: tuple[tuple[str, StreamLike], ...] = (
        ("stdout", process.stdout),
        ("stderr", process.stderr),
    )
    for marker in markers:
        if not marker:
            continue
        for name, stream in streams:
            if stream.contains(marker.encode("utf-8")):
                return marker, name
    return None
