"""Everything a report derives from its cases, in one function for ``run`` and ``merge``.

The gate ``readiness`` is the worse of case readiness (over the required
cases) and, when claims are declared, capability readiness (over the
claims); a ``skill`` without claims whose cases prove too little is at best
``USABLE_WITH_GAPS`` (:mod:`.evidence`), and one whose real-world cases did
not exercise a live path in their trials is ``NOT_READY`` (the anti-slop
gate's real-world rule, judged on the case records). A merged report goes through the
same function as a full run, so a rule of the gate cannot hold in one and
not the other.

Some runs cannot decide that a skill is READY, whatever their cases did
(:func:`readiness_limit`): a ``scaffold`` fixture (wiring only), a focused
run (``--case``: a selection, with the gates skipped) and a shard run (a
slice; only ``merge`` of every shard decides). Their gate is at best
``NOT_ESTABLISHED``; ``case_readiness`` keeps what their own cases say.
How such a run exits is :func:`run_succeeded`'s rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final, NamedTuple

from agentic_evals.contract.vocabulary import GATE_EXEMPT_KINDS
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
    Report,
)

CAPPED: Readiness = "NOT_ESTABLISHED"
"""The best readiness of a run that cannot decide (see :func:`readiness_limit`)."""


class Scope(NamedTuple):
    """What a report covers: the fixture's kind, and whether it is a selection or a slice."""

    eval_kind: str = "skill"
    focused: bool = False
    sharded: bool = False


FULL_RUN: Final = Scope()
"""A full run of a skill fixture: nothing limits its readiness."""


def readiness_limit(scope: Scope) -> str | None:
    """Why a report of ``scope`` can never be READY, in words; ``None`` when it can be."""
    if scope.eval_kind == "scaffold":
        return "a scaffold fixture checks wiring only and is never READY"
    if scope.focused:
        return "a focused run (--case) decides nothing for the fixture"
    if scope.sharded:
        return "a shard run decides nothing for the fixture: only merge of every shard does"
    return None


def report_scope(report: Report) -> Scope:
    """The scope of ``report``, as it records it."""
    return Scope(report.eval_kind, report.focused_cases is not None, report.shard is not None)


def run_succeeded(report: Report) -> bool:
    """Whether ``run`` exits 0 for ``report`` (without ``--report-only``).

    A full run exits 0 when READY. A focused run exits 0 when every case it
    selected passed, a shard run when its own required cases all passed
    (``case_readiness`` READY), so that an edit loop and the shard jobs of a
    CI pipeline succeed while their readiness stays ``NOT_ESTABLISHED``. A
    scaffold never exits 0.
    """
    scope = report_scope(report)
    if scope.eval_kind == "scaffold":
        return False
    if scope.focused:
        return bool(report.cases) and all(case.outcome == "PASS" for case in report.cases)
    if scope.sharded:
        return report.case_readiness == "READY"
    return report.readiness == "READY"


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
    readiness_limit: str | None


def derive(
    cases: Sequence[CaseReport],
    claims: Sequence[ClaimBasis] | None,
    *,
    trials_per_case: int,
    scope: Scope = FULL_RUN,
) -> Verdicts:
    """Judge ``cases`` (in report order) and the ``claims`` they support (``None``: none declared).

    Args:
        cases: Every case record of the report.
        claims: The basis of every declared claim.
        trials_per_case: The fixture's ``trials`` (the k of pass^k).
        scope: What the report covers; some scopes cap readiness (:func:`readiness_limit`);
            a ``skill`` without claims must show evidence to be READY (:mod:`.evidence`).
    """
    by_name = {case.name: case for case in cases}
    capability = None if claims is None else aggregate([judge_claim(b, by_name) for b in claims])
    readiness = case_readiness(cases)
    gate = readiness if capability is None else worse(readiness, capability.aggregate_readiness)
    # A focused run skips the gates: what its few cases lack is no finding.
    eval_kind = None if scope.focused else scope.eval_kind
    # The real-world rule of the anti-slop gate, on what the trials did: only a
    # full run (or merge) of a gated fixture holds every case it may rest on.
    gated = not scope.focused and not scope.sharded and scope.eval_kind not in GATE_EXEMPT_KINDS
    evidence = evidence_verdict(
        cases, eval_kind=eval_kind, has_claims=claims is not None, real_world=gated
    )
    if evidence.lacking:
        gate = worse(gate, "USABLE_WITH_GAPS")
    if evidence.hollow:
        gate = worse(gate, "NOT_READY")
    limit = readiness_limit(scope)
    if limit is not None:
        gate = worse(gate, CAPPED)
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
        readiness_limit=limit,
    )
