"""From trials to cases, and from cases to case readiness (SPEC 3.6). Pure.

Each reduction has an explicit value for "no data": a case without executed
trials is ``NOT_TESTED`` (:data:`NO_TRIALS`); readiness without executed
required cases is ``NOT_ESTABLISHED`` (:data:`NO_REQUIRED_CASES`).

Readiness severity, best to worst: ``READY``, ``USABLE_WITH_GAPS``,
``NOT_ESTABLISHED``, ``NOT_READY`` (:data:`~agentic_evals.reports.model.READINESS`).
Not knowing is worse than knowing of gaps, but better than knowing the
subject is broken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from agentic_evals import codes
from agentic_evals.evidence.compliance import sampling_problem
from agentic_evals.reports.model import (
    READINESS,
    CaseOutcome,
    CaseReport,
    Problem,
    Readiness,
    TrialOutcome,
    TrialReport,
)

NO_TRIALS: Final[CaseOutcome] = "NOT_TESTED"
"""Case outcome when no trial was executed."""
NO_REQUIRED_CASES: Final[Readiness] = "NOT_ESTABLISHED"
"""Readiness when no required case was executed."""


class CaseVerdict(NamedTuple):
    """The outcome of a case over its trials, and whether the trials disagreed."""

    outcome: CaseOutcome
    flaky: bool


def case_outcome(trial_outcomes: Iterable[TrialOutcome]) -> CaseVerdict:
    """Reduce a case's trial outcomes; the first matching rule wins.

    ``NOT_TESTED`` trials are not evidence and are ignored. Rules: no
    executed trial ``NOT_TESTED``; all PASS ``PASS``; any FAIL ``FAIL``;
    only PASS and INFRA_BLOCKED ``PASS`` (flaky); otherwise ``BLOCKED``.
    ``flaky`` is true whenever executed trials disagree.
    """
    seen = frozenset(o for o in trial_outcomes if o != "NOT_TESTED")
    outcome: CaseOutcome
    if not seen:
        outcome = NO_TRIALS
    elif seen == {"PASS"} or seen == {"PASS", "INFRA_BLOCKED"}:
        outcome = "PASS"
    elif "FAIL" in seen:
        outcome = "FAIL"
    else:
        outcome = "BLOCKED"
    return CaseVerdict(outcome, len(seen) > 1)


class CaseTally(NamedTuple):
    """What a case record derives from its trials (run and merge derive it alike)."""

    outcome: CaseOutcome
    flaky: bool
    problems: list[Problem]
    passed_trials: int
    total_trials: int
    pass_rate: float | None


INTERRUPTED_MESSAGE: Final = "the run was interrupted before this case ended"


def tally(
    trials: Sequence[TrialReport], trials_per_case: int, *, claims_sampling: bool = False
) -> CaseTally:
    """Reduce a case's trial records; fewer than ``trials_per_case`` means it was interrupted.

    A case that ``claims_sampling`` whose trials all wrote the same bytes FAILs
    (:func:`agentic_evals.evidence.compliance.sampling_problem`).
    """
    problems = case_problems([t.problems for t in trials])
    # Every trial ran unless the run was interrupted during (or before) this case.
    if len(trials) == trials_per_case:
        outcome, flaky = case_outcome([t.outcome for t in trials])
        unsampled = sampling_problem(trials) if claims_sampling else None
        if unsampled is not None:
            problems.append(unsampled)
            outcome = "FAIL" if outcome == "PASS" else outcome
    else:
        outcome, flaky = NO_TRIALS, False
        problems.append(Problem(code=codes.INTERRUPTED, message=INTERRUPTED_MESSAGE))
    passed = sum(1 for t in trials if t.outcome == "PASS")
    rate = passed / len(trials) if trials else None
    return CaseTally(outcome, flaky, problems, passed, len(trials), rate)


def case_readiness(cases: Iterable[CaseReport]) -> Readiness:
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
    """Return the worse of two readiness values (see ``READINESS``)."""
    return max(a, b, key=READINESS.index)


def case_problems(trial_problems: Iterable[Sequence[Problem]]) -> list[Problem]:
    """Return the distinct problems over a case's trials, in first-seen order."""
    distinct: list[Problem] = []
    for problems in trial_problems:
        for problem in problems:
            if problem not in distinct:
                distinct.append(problem)
    return distinct
