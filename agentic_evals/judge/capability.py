"""Capability readiness of a run, and of merged shard runs (SPEC section 4). Pure.

A run judges its fixture's claims from the case reports (whose evidence
fields live qualification filled in). A merge has no fixture: every claim in
a report carries its declaration and the static evidence of its supporting
cases, so :func:`merge_capability` recomputes the verdicts from the merged
cases exactly as a full run would.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from agentic_evals import codes
from agentic_evals.contract.models import CapabilityClaim, Case, Fixture
from agentic_evals.contract.vocabulary import VALUE_BEARING
from agentic_evals.judge.claims import ClaimBasis, aggregate, judge_claim
from agentic_evals.judge.exemptions import ExemptionStatus, judge_exemptions
from agentic_evals.judge.identity import has_per_claim_artifacts, requalification_reasons
from agentic_evals.judge.invariants import has_value_seam
from agentic_evals.reports.model import (
    CapabilityReadiness,
    CaseReport,
    ClaimEvidence,
    ClaimReadiness,
    Threat,
)


def required_classes(claim: CapabilityClaim) -> list[str]:
    """The classes ``claim`` requires, from either form of ``evidence_required``."""
    required = claim.evidence_required
    classes = (
        [cls for cls, wanted in required.items() if wanted]
        if isinstance(required, dict)
        else list(required)
    )
    return list(dict.fromkeys(classes))


def _threat(case: Case) -> Threat | None:
    threat = case.threat_assumption
    if threat is None:
        return None
    return Threat(
        case=case.name,
        model=threat.model,
        subverted_by=list(threat.subverted_by),
        adversarial_goal=threat.adversarial_goal,
    )


def claim_evidence(claim: CapabilityClaim, case: Case, report: CaseReport) -> ClaimEvidence:
    """What ``case`` (reported as ``report``) can prove for ``claim``."""
    ineligible: list[str] = []
    if not case.required:
        ineligible.append(codes.NOT_REQUIRED_CASE)
    ineligible += requalification_reasons(
        claim,
        case.name,
        test_source_sha256=report.test_source_sha256,
        oracle_sha256=report.oracle_sha256,
    )
    shared = report.live_qualified and len(set(case.supports_claims)) > 1
    if shared and not has_per_claim_artifacts(case):
        ineligible.append(codes.SHARED_LIVE_CASE)
    return ClaimEvidence(
        case=case.name,
        type=case.type,
        declared_evidence_class=report.declared_evidence_class,
        effective_evidence_class=report.effective_evidence_class,
        live_qualified=report.live_qualified,
        representation=case.representation,
        ineligible=ineligible,
        threat=_threat(case),
    )


def _statuses(cases: Sequence[CaseReport]) -> dict[str, CaseReport]:
    return {case.name: case for case in cases}


def capability_readiness(
    fixture: Fixture,
    pairs: Sequence[tuple[CaseReport, Case]],
    *,
    today: dt.date,
    now: dt.datetime,
) -> CapabilityReadiness | None:
    """Judge the fixture's claims over the reported cases; None when it declares none.

    Args:
        fixture: The fixture (its claims and seams).
        pairs: Each reported case with its declaration, in fixture order.
        today: Today's date (UTC), for date-only exemption expiry.
        now: The current time (UTC), for exemption expiry with a time.
    """
    if not fixture.capability_claims:
        return None
    claims: list[ClaimReadiness] = []
    for claim in fixture.capability_claims:
        required = required_classes(claim)
        value_bearing = claim.claim_semantics == VALUE_BEARING
        basis = ClaimBasis(
            id=claim.id,
            description=claim.description,
            criticality=claim.criticality,
            claim_semantics=claim.claim_semantics,
            domain_profile=claim.domain_profile,
            evidence_required=required,
            exemptions=judge_exemptions(claim.exemptions, required, today=today, now=now),
            value_representation_seam=(
                has_value_seam(fixture.seams, claim.id) if value_bearing else None
            ),
            evidence=[
                claim_evidence(claim, case, report)
                for report, case in pairs
                if claim.id in case.supports_claims
            ],
        )
        claims.append(judge_claim(basis, _statuses([report for report, _ in pairs])))
    return aggregate(claims)


def _basis_of(claim: ClaimReadiness, evidence: list[ClaimEvidence]) -> ClaimBasis:
    return ClaimBasis(
        id=claim.id,
        description=claim.description,
        criticality=claim.criticality,
        claim_semantics=claim.claim_semantics,
        domain_profile=claim.domain_profile,
        evidence_required=list(claim.evidence_required),
        exemptions=ExemptionStatus(list(claim.exempt_evidence), list(claim.ignored_exemptions)),
        value_representation_seam=claim.value_representation_seam,
        evidence=evidence,
    )


def merge_capability(
    blocks: Sequence[CapabilityReadiness | None], cases: Sequence[CaseReport]
) -> CapabilityReadiness | None:
    """Recompute capability readiness for the merged ``cases`` of shard reports.

    Declarations (and exemptions, as judged when the first shard ran) come
    from the first report; each claim's evidence is the union of the shards'
    evidence, in merged case order. None when no report has claims.
    """
    present = [block for block in blocks if block is not None]
    if not present:
        return None
    order = {case.name: index for index, case in enumerate(cases)}
    claims: list[ClaimReadiness] = []
    for claim in present[0].claims:
        evidence: dict[str, ClaimEvidence] = {}
        for block in present:
            for other in block.claims:
                if other.id == claim.id:
                    evidence.update({entry.case: entry for entry in other.evidence})
        ordered = sorted(evidence.values(), key=lambda e: order.get(e.case, len(order)))
        claims.append(judge_claim(_basis_of(claim, ordered), _statuses(cases)))
    return aggregate(claims)
