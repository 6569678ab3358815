"""Per-class and per-claim verdicts, and readiness over claims (SPEC section 4). Pure.

Per required class, over the claim's *eligible* supporting cases (see
:class:`~agentic_evals.reports.model.ClaimEvidence`) whose *effective* class
is that class, first match wins:

- ``FAILED``: one of them FAILed (a failure is evidence against the claim);
- ``PROVEN``: one of them PASSed, every trial of it;
- ``BLOCKED``: one of them ran and was BLOCKED (or passed only around
  infrastructure-blocked trials);
- ``EXEMPT``: none ran, and a valid exemption names the class;
- ``MISSING``: nothing.

Per claim, first match wins: any class FAILED -> ``FAILED``; every class
PROVEN (and, for a value-bearing claim, every representation covered) ->
``PROVEN``; a class met only by BLOCKED cases -> ``BLOCKED_EXTERNAL``; some
class PROVEN -> ``PARTIALLY_PROVEN``; else ``NOT_ESTABLISHED``. An EXEMPT
class is never PROVEN, so an exemption never makes a claim PROVEN.

Claim readiness: ``READY`` when every critical claim (with no critical
claims: every claim) is PROVEN; any critical claim FAILED -> ``NOT_READY``;
else ``USABLE_WITH_GAPS``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.vocabulary import LIVE_CLASSES, VALUE_BEARING
from agentic_evals.evidence.facts import fills_slot
from agentic_evals.judge.exemptions import ExemptionStatus
from agentic_evals.judge.invariants import independence, matrix, missing_representations
from agentic_evals.reports.model import (
    CapabilityReadiness,
    CaseReport,
    ClaimDeclaration,
    ClaimEvidence,
    ClaimReadiness,
    ClaimVerdict,
    ClassVerdict,
    Readiness,
    Requalification,
)

REQUALIFY = frozenset(
    {codes.NOT_ADMITTED, codes.TEST_SOURCE_CHANGED, codes.ORACLE_CHANGED, codes.CLAIM_CHANGED}
)


class ClaimBasis(NamedTuple):
    """Everything a claim's verdict depends on, besides the case outcomes."""

    declaration: ClaimDeclaration
    exemptions: ExemptionStatus
    evidence: list[ClaimEvidence]


def _proven(status: CaseReport | None) -> bool:
    return (
        status is not None
        and status.outcome == "PASS"
        and status.total_trials > 0
        and status.passed_trials == status.total_trials
    )


def class_verdict(
    evidence_class: str,
    evidence: Sequence[ClaimEvidence],
    statuses: Mapping[str, CaseReport],
    *,
    exempt: bool,
) -> tuple[ClassVerdict, list[str]]:
    """The verdict of one required class, and the eligible cases of that class."""
    cases = [entry.case for entry in evidence if fills_slot(entry, evidence_class)]
    found = [statuses[name] for name in cases if name in statuses]
    if any(status.outcome == "FAIL" for status in found):
        return "FAILED", cases
    if any(_proven(status) for status in found):
        return "PROVEN", cases
    if any(status.outcome in ("PASS", "BLOCKED") for status in found):
        return "BLOCKED", cases
    return ("EXEMPT" if exempt else "MISSING"), cases


def claim_verdict(
    per_class: Mapping[str, ClassVerdict], *, representations_missing: bool
) -> ClaimVerdict:
    """The verdict of a claim from its class verdicts (see the module docstring)."""
    verdicts = list(per_class.values())
    if "FAILED" in verdicts:
        return "FAILED"
    if verdicts and all(v == "PROVEN" for v in verdicts) and not representations_missing:
        return "PROVEN"
    if "BLOCKED" in verdicts:
        return "BLOCKED_EXTERNAL"
    if "PROVEN" in verdicts:
        return "PARTIALLY_PROVEN"
    return "NOT_ESTABLISHED"


def _per_class(
    basis: ClaimBasis, statuses: Mapping[str, CaseReport]
) -> tuple[dict[str, ClassVerdict], dict[str, list[str]]]:
    exempt = {entry.evidence_class for entry in basis.exemptions.valid}
    per_class: dict[str, ClassVerdict] = {}
    class_cases: dict[str, list[str]] = {}
    for evidence_class in basis.declaration.evidence_required:
        verdict, cases = class_verdict(
            evidence_class, basis.evidence, statuses, exempt=evidence_class in exempt
        )
        per_class[evidence_class], class_cases[evidence_class] = verdict, cases
    return per_class, class_cases


def _requalifications(evidence: Sequence[ClaimEvidence]) -> list[Requalification]:
    return [
        Requalification(case=entry.case, reasons=[r for r in entry.ineligible if r in REQUALIFY])
        for entry in evidence
        if REQUALIFY.intersection(entry.ineligible)
    ]


def _unqualified(evidence: Sequence[ClaimEvidence]) -> list[str]:
    return [
        entry.case
        for entry in evidence
        if entry.declared_evidence_class in LIVE_CLASSES and not entry.live_qualified
    ]


def judge_claim(basis: ClaimBasis, statuses: Mapping[str, CaseReport]) -> ClaimReadiness:
    """Judge one claim from its basis and the outcomes of the cases."""
    declared = basis.declaration
    per_class, class_cases = _per_class(basis, statuses)
    value_bearing = declared.claim_semantics == VALUE_BEARING

    def passed(name: str) -> bool:
        return _proven(statuses.get(name))

    missing_reps = (
        missing_representations(declared.domain_profile, basis.evidence, passed)
        if value_bearing
        else []
    )
    return ClaimReadiness(
        **dict(declared),
        verdict=claim_verdict(per_class, representations_missing=bool(missing_reps)),
        per_class=per_class,
        class_cases=class_cases,
        missing_evidence=[cls for cls, verdict in per_class.items() if verdict == "MISSING"],
        exempt_evidence=list(basis.exemptions.valid),
        ignored_exemptions=list(basis.exemptions.ignored),
        unqualified_live_cases=_unqualified(basis.evidence),
        supporting_cases=[entry.case for entry in basis.evidence],
        requires_requalification=_requalifications(basis.evidence),
        shared_live_cases=[
            entry.case for entry in basis.evidence if codes.SHARED_LIVE_CASE in entry.ineligible
        ],
        required_representations=list(matrix(declared.domain_profile)) if value_bearing else [],
        missing_representations=missing_reps,
        independence=(
            independence(basis.evidence, declared.domain_profile) if value_bearing else None
        ),
        threats=[entry.threat for entry in basis.evidence if entry.threat is not None],
        evidence=list(basis.evidence),
    )


def claims_readiness(claims: Sequence[ClaimReadiness]) -> Readiness:
    """Readiness over judged claims (see the module docstring)."""
    critical = [claim for claim in claims if claim.criticality == "critical"]
    judged = critical or list(claims)
    if all(claim.verdict == "PROVEN" for claim in judged):
        return "READY"
    if any(claim.verdict == "FAILED" for claim in critical):
        return "NOT_READY"
    return "USABLE_WITH_GAPS"


def aggregate(claims: list[ClaimReadiness]) -> CapabilityReadiness:
    """The ``capability_readiness`` block over judged claims."""
    critical = [claim for claim in claims if claim.criticality == "critical"]
    return CapabilityReadiness(
        aggregate_readiness=claims_readiness(claims),
        critical_claim_count=len(critical),
        critical_claims_proven=sum(1 for claim in critical if claim.verdict == "PROVEN"),
        claims=claims,
    )
