"""From evidence to verdicts: trials, cases and case readiness (SPEC 3.6). Pure.

Each reduction is a table of named rules tried in order, first match wins,
with an explicit value for "no data": a case without executed trials is
``NOT_TESTED``; readiness without executed required cases is
``NOT_ESTABLISHED``.

Readiness severity, best to worst: ``READY``, ``USABLE_WITH_GAPS``,
``NOT_ESTABLISHED``, ``NOT_READY``. Not knowing is worse than knowing of
gaps, but better than knowing the subject is broken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, NamedTuple, Protocol

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleResult, ProcessOutcomeLike, StreamLike
from agentic_evals.reports.model import CaseOutcome, Problem, Readiness, TrialOutcome

NO_TRIALS: Final[CaseOutcome] = "NOT_TESTED"
"""Case outcome when no trial was executed."""
NO_REQUIRED_CASES: Final[Readiness] = "NOT_ESTABLISHED"
"""Readiness when no required case was executed."""
READINESS_ORDER: Final[tuple[Readiness, ...]] = (
    "READY",
    "USABLE_WITH_GAPS",
    "NOT_ESTABLISHED",
    "NOT_READY",
)
"""Readiness values from best to worst."""


class TrialVerdict(NamedTuple):
    """The outcome of one trial and every problem found."""

    outcome: TrialOutcome
    problems: list[Problem]


class CaseVerdict(NamedTuple):
    """The outcome of a case over its trials, and whether the trials disagreed."""

    outcome: CaseOutcome
    flaky: bool


class CaseLike(Protocol):
    """What readiness needs to know about a case (``CaseReport`` qualifies)."""

    @property
    def required(self) -> bool:
        """The case counts for readiness."""
        ...

    @property
    def outcome(self) -> CaseOutcome:
        """Outcome over all trials."""
        ...

    @property
    def passed_trials(self) -> int:
        """Trials that passed."""
        ...


class CaseResult(NamedTuple):
    """A plain ``CaseLike``."""

    required: bool
    outcome: CaseOutcome
    passed_trials: int = 0


class _TrialFacts(NamedTuple):
    timed_out: bool
    start_failed: bool
    orphans: bool
    blocked: bool
    checks_failed: bool
    infra_marker: bool


_TrialRule = tuple[str, Callable[[_TrialFacts], bool], TrialOutcome]
_TRIAL_RULES: Final[tuple[_TrialRule, ...]] = (
    ("timeout", lambda f: f.timed_out, "FAIL"),
    ("exec_failed", lambda f: f.start_failed, "FAIL"),
    ("orphans", lambda f: f.orphans, "FAIL"),
    ("blocked", lambda f: f.blocked, "BLOCKED"),
    ("infra_blocked", lambda f: f.checks_failed and f.infra_marker, "INFRA_BLOCKED"),
    ("checks_failed", lambda f: f.checks_failed, "FAIL"),
    ("pass", lambda f: True, "PASS"),
)


def trial_outcome(
    case: Case,
    process: ProcessOutcomeLike,
    oracles: OracleResult | None = None,
    *,
    extra_problems: Sequence[Problem] = (),
) -> TrialVerdict:
    """Decide one trial; the first matching rule wins.

    Rules: timeout FAIL; could not start FAIL (``EXEC_FAILED``; check
    problems are dropped, since there was no run to check); orphans FAIL; a
    blocked marker (or a ``TRACE_UNAVAILABLE`` check problem) BLOCKED; other
    check problems FAIL, or INFRA_BLOCKED when an ``infra_blocked_when``
    marker was seen; else PASS. The verdict lists every problem found, not
    just the deciding one. Markers are looked for in stdout and stderr; empty
    markers are ignored (they would match every trial).

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
    facts = _TrialFacts(
        timed_out=process.timed_out,
        start_failed=start_failed,
        orphans=bool(process.orphan_pids),
        blocked=blocked is not None or untraced,
        checks_failed=bool(failing),
        infra_marker=infra is not None,
    )
    outcome = next(out for _, test, out in _TRIAL_RULES if test(facts))
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


_CASE_RULES: Final[
    tuple[tuple[str, Callable[[frozenset[TrialOutcome]], bool], CaseOutcome], ...]
] = (
    ("no_trials", lambda seen: not seen, NO_TRIALS),
    ("all_pass", lambda seen: seen == {"PASS"}, "PASS"),
    ("any_fail", lambda seen: "FAIL" in seen, "FAIL"),
    ("pass_despite_infra", lambda seen: seen == {"PASS", "INFRA_BLOCKED"}, "PASS"),
    ("blocked", lambda seen: True, "BLOCKED"),
)


def case_outcome(trial_outcomes: Iterable[TrialOutcome]) -> CaseVerdict:
    """Reduce a case's trial outcomes; the first matching rule wins.

    ``NOT_TESTED`` trials are not evidence and are ignored. Rules: no
    executed trial ``NOT_TESTED``; all PASS ``PASS``; any FAIL ``FAIL``;
    only PASS and INFRA_BLOCKED ``PASS`` (flaky); otherwise ``BLOCKED``.
    ``flaky`` is true whenever executed trials disagree.
    """
    seen = frozenset(o for o in trial_outcomes if o != "NOT_TESTED")
    outcome = next(out for _, test, out in _CASE_RULES if test(seen))
    return CaseVerdict(outcome, len(seen) > 1)


def case_readiness(cases: Iterable[CaseLike]) -> Readiness:
    """Readiness over the required cases (non-required ones are ignored).

    No executed required case ``NOT_ESTABLISHED``; every required case PASS
    ``READY``; some required case has a passing trial ``USABLE_WITH_GAPS``;
    else ``NOT_READY``. A required BLOCKED (or untested) case is not a PASS,
    so it never allows ``READY``.
    """
    required = [case for case in cases if case.required]
    if all(case.outcome == "NOT_TESTED" for case in required):
        return NO_REQUIRED_CASES
    if all(case.outcome == "PASS" for case in required):
        return "READY"
    if any(case.passed_trials > 0 for case in required):
        return "USABLE_WITH_GAPS"
    return "NOT_READY"


def worse(a: Readiness, b: Readiness) -> Readiness:
    """Return the worse of two readiness values (see ``READINESS_ORDER``)."""
    return max(a, b, key=READINESS_ORDER.index)


def case_problems(trial_problems: Iterable[Sequence[Problem]]) -> list[Problem]:
    """Return the distinct problems over a case's trials, in first-seen order."""
    distinct: list[Problem] = []
    for problems in trial_problems:
        for problem in problems:
            if problem not in distinct:
                distinct.append(problem)
    return distinct
