"""Everything a report derives from its cases, in one function for ``run`` and ``merge``.

The gate ``readiness`` is the worse of case readiness (over the required
cases) and, when claims are declared, capability readiness (over the
claims); a ``skill`` without claims whose cases prove too little is at best
``USABLE_WITH_GAPS`` (:mod:`.evidence`). A merged report goes through the
same function as a full run, so a rule of the gate cannot hold in one and
not the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from agentic_evals.documents.findings import Finding
from agentic_evals.judge.cases import case_readiness, worse
from agentic_evals.judge.claims import ClaimBasis, aggregate, judge_claim
from agentic_evals.judge.evidence import evidence_verdict
from agentic_evals.judge.metrics import build_metrics
from agentic_evals.reports.model import (
    CASE_OUTCOMES,
    CapabilityReadiness,
    CaseReport,
    Metrics,
    Readiness,
)


class Verdicts(NamedTuple):
    """The fields of a report derived from its cases (the gate, counts and metrics)."""

    readiness: Readiness
    case_readiness: Readiness
    capability_readiness: CapabilityReadiness | None
    claims_coverage: dict[str, list[str]]
    case_count: int
    required_case_count: int
    outcome_counts: dict[str, int]
    trial_count: int
    metrics: Metrics
    evidence_findings: list[Finding]


def derive(
    cases: Sequence[CaseReport],
    claims: Sequence[ClaimBasis] | None,
    *,
    trials_per_case: int,
    eval_kind: str | None = None,
) -> Verdicts:
    """Judge ``cases`` (in report order) and the ``claims`` they support (``None``: none declared).

    Args:
        cases: Every case record of the report.
        claims: The basis of every declared claim.
        trials_per_case: The fixture's ``trials`` (the k of pass^k).
        eval_kind: The fixture's eval kind: a ``skill`` without claims must show
            evidence to be READY (:mod:`.evidence`).
    """
    by_name = {case.name: case for case in cases}
    capability = None if claims is None else aggregate([judge_claim(b, by_name) for b in claims])
    readiness = case_readiness(cases)
    gate = readiness if capability is None else worse(readiness, capability.aggregate_readiness)
    evidence = evidence_verdict(cases, eval_kind=eval_kind, has_claims=claims is not None)
    if evidence.lacking:
        gate = worse(gate, "USABLE_WITH_GAPS")
    counted = Counter(case.outcome for case in cases)
    return Verdicts(
        readiness=gate,
        case_readiness=readiness,
        capability_readiness=capability,
        claims_coverage={
            basis.declaration.id: [
                case.name for case in cases if basis.declaration.id in case.supports_claims
            ]
            for basis in claims or ()
        },
        case_count=len(cases),
        required_case_count=sum(1 for case in cases if case.required),
        outcome_counts={outcome: counted.get(outcome, 0) for outcome in CASE_OUTCOMES},
        trial_count=sum(case.total_trials for case in cases),
        metrics=build_metrics(cases, trials_per_case=trials_per_case),
        evidence_findings=evidence.findings,
    )
