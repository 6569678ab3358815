"""Qualification tiers (SPEC section 6). Pure.

Tiers, highest first: ``system_test``, ``full_integration``, ``simulated``,
``unit``, ``not_required``. ``run --tier`` states the tier of the environment
the run happens in (default ``unit``). A case whose trials all passed reaches
the lower of the run's tier and its own ``qualification.required_up_to``
(``not_required`` without a ``qualification``); the report groups cases by
that tier. A case that did not pass every trial reaches no tier.

With ``--require-system-test``, a required case whose ``required_up_to`` is
``system_test`` and that did not reach it (the run's tier is lower) gets the
problem ``MISSING_SYSTEM_TEST``, and a PASS becomes BLOCKED: passing lower is
not passing where it must. A FAIL stays a FAIL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.contract.vocabulary import QUALIFICATION_TIERS, QualificationTier
from agentic_evals.reports.model import CaseReport, Problem, QualificationReport


def rank(tier: QualificationTier) -> int:
    """Higher tiers rank higher (``not_required`` is 0)."""
    return len(QUALIFICATION_TIERS) - 1 - QUALIFICATION_TIERS.index(tier)


def required_tier(case: Case) -> QualificationTier:
    """The tier ``case`` must pass at (``not_required`` without a qualification)."""
    return case.qualification.required_up_to if case.qualification else "not_required"


def reached_tier(case: Case, run_tier: QualificationTier) -> QualificationTier:
    """The tier a passing ``case`` reaches in a run at ``run_tier``: the lower of the two."""
    return min(required_tier(case), run_tier, key=rank)


def misses_system_test(case: Case, run_tier: QualificationTier) -> bool:
    """A required case needing ``system_test`` that a run at ``run_tier`` cannot reach."""
    return (
        case.required
        and required_tier(case) == "system_test"
        and rank(run_tier) < rank("system_test")
    )


def apply_system_test(
    report: CaseReport, case: Case, run_tier: QualificationTier, *, require: bool
) -> CaseReport:
    """Under ``--require-system-test``, block a case that did not reach ``system_test``."""
    if not require or report.outcome == "NOT_TESTED" or not misses_system_test(case, run_tier):
        return report
    message = (
        f"the case must pass at system_test, but this run is at {run_tier} "
        "(--require-system-test); run it with --tier system_test"
    )
    problem = Problem(code=codes.MISSING_SYSTEM_TEST, message=message)
    outcome = "BLOCKED" if report.outcome == "PASS" else report.outcome
    return report.model_copy(update={"outcome": outcome, "problems": [*report.problems, problem]})


def passed_every_trial(report: CaseReport) -> bool:
    """Every trial of the case passed (and at least one ran)."""
    return report.total_trials > 0 and report.passed_trials == report.total_trials


def qualification_report(
    pairs: Iterable[tuple[CaseReport, Case]], run_tier: QualificationTier, *, require: bool
) -> QualificationReport:
    """Group the reported cases by the highest tier they passed at."""
    block = QualificationReport(
        run_tier=run_tier,
        require_system_test=require,
        passed_at={tier: [] for tier in QUALIFICATION_TIERS},
        not_passed=[],
        missing_system_test=[],
    )
    for report, case in pairs:
        if passed_every_trial(report):
            block.passed_at[reached_tier(case, run_tier)].append(report.name)
        else:
            block.not_passed.append(report.name)
        if report.outcome != "NOT_TESTED" and misses_system_test(case, run_tier):
            block.missing_system_test.append(report.name)
    return block


def merge_qualification(
    blocks: Sequence[QualificationReport | None], cases: Sequence[CaseReport]
) -> QualificationReport | None:
    """Merge the shards' blocks, in the merged case order.

    Shards run at different tiers merge at the lowest of them: the merged
    run qualifies no higher than its weakest environment.
    """
    present = [block for block in blocks if block is not None]
    if not present:
        return None
    order = {case.name: index for index, case in enumerate(cases)}

    def ordered(names: Iterable[str]) -> list[str]:
        return sorted(names, key=lambda name: order.get(name, len(order)))

    return QualificationReport(
        run_tier=min((block.run_tier for block in present), key=rank),
        require_system_test=any(block.require_system_test for block in present),
        passed_at={
            tier: ordered(name for block in present for name in block.passed_at.get(tier, []))
            for tier in QUALIFICATION_TIERS
        },
        not_passed=ordered(name for block in present for name in block.not_passed),
        missing_system_test=ordered(
            name for block in present for name in block.missing_system_test
        ),
    )
