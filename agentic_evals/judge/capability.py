"""What each claim is judged on, for a run and for merged shard runs (SPEC section 4). Pure.

A run takes each claim's declaration from the fixture and its evidence from
the fact table of its supporting cases. A merge has no fixture: every claim
in a shard report carries its declaration and the evidence of its supporting
cases, so :func:`merged_bases` rebuilds the same bases from the reports and
the one derivation (:mod:`.gate`) judges them exactly as a full run would.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from agentic_evals import codes
from agentic_evals.contract.claims import CapabilityClaim
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import VALUE_BEARING
from agentic_evals.evidence.facts import CaseEvidence
from agentic_evals.judge.claims import ClaimBasis
from agentic_evals.judge.exemptions import ExemptionStatus, judge_exemptions
from agentic_evals.judge.identity import claim_sha256, requalification_reasons
from agentic_evals.judge.invariants import has_value_seam
from agentic_evals.reports.model import (
    CapabilityReadiness,
    CaseReport,
    ClaimDeclaration,
    ClaimEvidence,
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


def claim_evidence(
    claim: CapabilityClaim, facts: CaseEvidence, report: CaseReport
) -> ClaimEvidence:
    """What a supporting case (its facts, and its report) can prove for ``claim``."""
    case = facts.case
    ineligible: list[str] = []
    if not case.required:
        ineligible.append(codes.NOT_REQUIRED_CASE)
    ineligible += requalification_reasons(
        claim,
        case.name,
        test_source_sha256=report.test_source_sha256,
        oracle_sha256=report.oracle_sha256,
    )
    if facts.live_qualified and not facts.carries_its_claims:
        ineligible.append(codes.SHARED_LIVE_CASE)
    if facts.weak:
        ineligible.append(codes.NO_FAILING_ORACLE)  # every check passes on the null trial
    return ClaimEvidence(
        case=case.name,
        type=case.type,
        declared_evidence_class=facts.declared_class,
        effective_evidence_class=facts.effective_class,
        live_qualified=facts.live_qualified,
        representation=case.representation,
        ineligible=ineligible,
        threat=_threat(case),
    )


def run_bases(
    fixture: Fixture,
    pairs: Sequence[tuple[CaseReport, CaseEvidence]],
    *,
    today: dt.date,
    now: dt.datetime,
) -> list[ClaimBasis] | None:
    """The basis of every claim of ``fixture``; ``None`` when it declares none.

    Args:
        fixture: The fixture (its claims and seams).
        pairs: Each reported case with its facts, in fixture order.
        today: Today's date (UTC), for date-only exemption expiry.
        now: The current time (UTC), for exemption expiry with a time.
    """
    if not fixture.capability_claims:
        return None
    bases: list[ClaimBasis] = []
    for claim in fixture.capability_claims:
        required = required_classes(claim)
        value_bearing = claim.claim_semantics == VALUE_BEARING
        declaration = ClaimDeclaration(
            id=claim.id,
            description=claim.description,
            criticality=claim.criticality,
            claim_semantics=claim.claim_semantics,
            domain_profile=claim.domain_profile,
            evidence_required=required,
            value_representation_seam=(
                has_value_seam(fixture.seams, claim.id) if value_bearing else None
            ),
            claim_sha256=claim_sha256(claim),
        )
        bases.append(
            ClaimBasis(
                declaration=declaration,
                exemptions=judge_exemptions(claim.exemptions, required, today=today, now=now),
                evidence=[
                    claim_evidence(claim, facts, report)
                    for report, facts in pairs
                    if claim.id in facts.case.supports_claims
                ],
            )
        )
    return bases


def merged_bases(
    blocks: Sequence[CapabilityReadiness | None], cases: Sequence[CaseReport]
) -> list[ClaimBasis] | None:
    """The basis of every claim of merged shard reports; ``None`` when none has claims.

    Declarations (and exemptions, as judged when the first shard ran) come
    from the first report; each claim's evidence is the union of the shards'
    evidence, in merged case order.
    """
    present = [block for block in blocks if block is not None]
    if not present:
        return None
    order = {case.name: index for index, case in enumerate(cases)}
    bases: list[ClaimBasis] = []
    for claim in present[0].claims:
        evidence: dict[str, ClaimEvidence] = {}
        for block in present:
            for other in block.claims:
                if other.id == claim.id:
                    evidence.update({entry.case: entry for entry in other.evidence})
        declared = {name: getattr(claim, name) for name in ClaimDeclaration.model_fields}
        bases.append(
            ClaimBasis(
                declaration=ClaimDeclaration(**declared),
                exemptions=ExemptionStatus(
                    list(claim.exempt_evidence), list(claim.ignored_exemptions)
                ),
                evidence=sorted(evidence.values(), key=lambda e: order.get(e.case, len(order))),
            )
        )
    return bases
