"""Seam coverage of one skill: per-seam guards, prioritized gaps, verdict (SPEC 7). Pure.

A seam is *covered* when, for every class in its ``required_evidence``, a
capable case (:mod:`.guards`) that lists it has that *effective* class (a
seam with no required class needs one capable case of any class). It is
``weak_only`` when cases list it but none of them is capable.

Gaps are the uncovered seams, plus one ``missing_value_representation_seam``
per value-bearing claim with no seam of type ``value-representation``
declared ``critical`` (literally: ``high`` does not declare one) for it or
for no claim; that gap is critical and lists the claim's required classes as
missing. Order: critical, then important, then optional; within a tier, more
missing classes first; then an undeclared seam before a declared one; then
seams with more incident regressions first; then by id.

Verdict: ``NOT_READY`` when a fixture cannot be read (its seams are unknown)
or any critical gap remains; else ``NO_CRITICAL_SEAMS_DECLARED`` when no seam
is critical; else ``READY``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentic_evals import codes
from agentic_evals.contract.vocabulary import VALUE_BEARING, VALUE_SEAM_TYPE
from agentic_evals.coverage.declarations import ClaimDecl, SeamDecl
from agentic_evals.coverage.guards import CaseFacts
from agentic_evals.coverage.incidents import RegressionRef
from agentic_evals.coverage.models import (
    CoverageGap,
    RegressionEvidence,
    SeamCoverage,
    Verdict,
    WeakCase,
)
from agentic_evals.coverage.union import class_order
from agentic_evals.documents.findings import Finding, finding

_TIER_RANK = {"critical": 0, "important": 1, "optional": 2}
_KIND_RANK = {"missing_value_representation_seam": 0, "uncovered_seam": 1}


def seam_coverage(
    seam: SeamDecl, cases: Sequence[CaseFacts], incidents: Mapping[str, list[RegressionRef]]
) -> SeamCoverage:
    """Who guards ``seam``, in which effective classes, and what is missing."""
    listing = [case for case in cases if seam.seam_id in case.seams]
    regressions = incidents.get(seam.seam_id, [])
    capable = [case for case in listing if not case.weak_reasons]
    present = class_order(case.effective_class for case in capable)
    missing = [name for name in seam.required_evidence if name not in present]
    covered = not missing if seam.required_evidence else bool(capable)
    return SeamCoverage(
        seam_id=seam.seam_id,
        seam_type=seam.seam_type,
        criticality=seam.criticality,
        effective_criticality=seam.tier,
        claim_id=seam.claim_id,
        declared_in=list(seam.declared_in),
        required_evidence=list(seam.required_evidence),
        covered=covered,
        weak_only=bool(listing) and not capable,
        present_evidence=present,
        missing_evidence=missing,
        covering_cases=[case.ref for case in capable],
        weak_cases=[
            WeakCase(
                case=case.ref,
                effective_evidence_class=case.effective_class,
                reasons=list(case.weak_reasons),
            )
            for case in listing
            if case.weak_reasons
        ],
        unqualified_live_cases=[case.ref for case in listing if case.downgraded],
        has_live_coverage=any(case.live for case in capable),
        incident_regressions=[ref.regression_id for ref in regressions],
        regression_evidence=[
            RegressionEvidence(
                regression_id=ref.regression_id,
                status=ref.status,
                established_fail_before_fix=ref.established,
                proof_state=ref.proof_state,
            )
            for ref in regressions
        ],
    )


def _seam_gap(seam: SeamCoverage) -> CoverageGap:
    if seam.weak_only:
        why = "only cases that cannot fail list it"
    elif not seam.covering_cases:
        why = "no case lists it"
    else:
        why = f"no capable case in {', '.join(seam.missing_evidence)}"
    return CoverageGap(
        rank=0,
        kind="uncovered_seam",
        seam_id=seam.seam_id,
        claim_id=seam.claim_id,
        effective_criticality=seam.effective_criticality,
        missing_evidence=list(seam.missing_evidence),
        weak_only=seam.weak_only,
        incident_regressions=list(seam.incident_regressions),
        detail=f"{seam.effective_criticality} seam {seam.seam_id!r} is not covered: {why}",
    )


def has_value_seam(seams: Sequence[SeamDecl], claim_id: str) -> bool:
    """Whether a seam of type ``value-representation`` declared ``critical`` serves the claim."""
    return any(
        seam.seam_type == VALUE_SEAM_TYPE
        and seam.criticality == "critical"
        and seam.claim_id in (None, claim_id)
        for seam in seams
    )


def value_seam_gaps(
    claims: Sequence[ClaimDecl], seams: Sequence[SeamDecl]
) -> tuple[list[CoverageGap], list[Finding]]:
    """A critical gap (and an error finding) per value-bearing claim without its seam."""
    gaps: list[CoverageGap] = []
    found: list[Finding] = []
    for claim in claims:
        if claim.semantics != VALUE_BEARING or has_value_seam(seams, claim.claim_id):
            continue
        detail = (
            f"value-bearing claim {claim.claim_id!r} has no critical seam of type "
            f"{VALUE_SEAM_TYPE!r}: nothing names where a representation regression enters"
        )
        gaps.append(
            CoverageGap(
                rank=0,
                kind="missing_value_representation_seam",
                seam_id=None,
                claim_id=claim.claim_id,
                effective_criticality="critical",
                missing_evidence=class_order(claim.evidence_required),
                weak_only=False,
                incident_regressions=[],
                detail=detail,
            )
        )
        found.append(finding(codes.COV_VALUE_SEAM, "", detail, "error", file=claim.file))
    return gaps, found


def prioritize(gaps: Sequence[CoverageGap]) -> list[CoverageGap]:
    """Rank ``gaps``: tier, most missing classes, undeclared first, most incidents, id."""
    ordered = sorted(
        gaps,
        key=lambda gap: (
            _TIER_RANK[gap.effective_criticality],
            -len(gap.missing_evidence),
            _KIND_RANK[gap.kind],
            -len(gap.incident_regressions),
            gap.seam_id or gap.claim_id or "",
        ),
    )
    return [gap.model_copy(update={"rank": rank}) for rank, gap in enumerate(ordered, start=1)]


def coverage_gaps(
    seams: Sequence[SeamCoverage], value_gaps: Sequence[CoverageGap]
) -> list[CoverageGap]:
    """Every gap of the skill, prioritized."""
    return prioritize([*value_gaps, *(_seam_gap(seam) for seam in seams if not seam.covered)])


def verdict(seams: Sequence[SeamCoverage], gaps: Sequence[CoverageGap], readable: bool) -> Verdict:
    """``READY`` iff every fixture was read and every critical seam is covered (README)."""
    if not readable or any(gap.effective_criticality == "critical" for gap in gaps):
        return "NOT_READY"
    if not any(seam.effective_criticality == "critical" for seam in seams):
        return "NO_CRITICAL_SEAMS_DECLARED"
    return "READY"
