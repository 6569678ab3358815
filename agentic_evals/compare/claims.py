"""How each capability claim moved between two reports, and whether it asks for less. Pure."""

from __future__ import annotations

from typing import Final

from agentic_evals.compare.models import Change, ClaimDelta, Direction
from agentic_evals.contract.vocabulary import CRITICALITIES
from agentic_evals.reports.model import ClaimReadiness, ClaimVerdict, Report

_VERDICT_ORDER: Final[tuple[ClaimVerdict, ...]] = (
    "FAILED", "NOT_ESTABLISHED", "BLOCKED_EXTERNAL", "PARTIALLY_PROVEN", "PROVEN",
)  # fmt: skip
"""Claim verdicts from the worst to the best: a higher index is better."""


def direction(rank_before: int, rank_after: int) -> Direction:
    """``worse`` when the rank fell, ``better`` when it rose."""
    if rank_after < rank_before:
        return "worse"
    return "better" if rank_after > rank_before else "same"


def claim_deltas(base: Report, head: Report) -> list[ClaimDelta]:
    """Every claim of either report, BASE order first."""
    old = {c.id: c for c in (base.capability_readiness.claims if base.capability_readiness else [])}
    new = {c.id: c for c in (head.capability_readiness.claims if head.capability_readiness else [])}
    return [_claim_delta(i, old.get(i), new.get(i)) for i in dict.fromkeys([*old, *new])]


def _claim_delta(
    claim_id: str, old: ClaimReadiness | None, new: ClaimReadiness | None
) -> ClaimDelta:
    weaker: list[Change] = []
    stronger: list[Change] = []
    if old is None or new is None:
        change = Change(
            kind="CLAIM_ADDED" if old is None else "CLAIM_REMOVED", check="claim", detail=claim_id
        )
        (stronger if old is None else weaker).append(change)
        verdict: Direction = "same"
    else:
        verdict = direction(_VERDICT_ORDER.index(old.verdict), _VERDICT_ORDER.index(new.verdict))
        # CRITICALITIES runs from the most critical: a higher index is less.
        crit = direction(
            -CRITICALITIES.index(old.criticality), -CRITICALITIES.index(new.criticality)
        )
        if crit != "same":
            kind = "CRITICALITY_LOWERED" if crit == "worse" else "CRITICALITY_RAISED"
            detail = f"{old.criticality} -> {new.criticality}"
            (weaker if crit == "worse" else stronger).append(
                Change(kind=kind, check="criticality", detail=detail)
            )
        for lost in sorted(set(old.evidence_required) - set(new.evidence_required)):
            weaker.append(Change(kind="EVIDENCE_LOWERED", check="evidence_required", detail=lost))
        for won in sorted(set(new.evidence_required) - set(old.evidence_required)):
            stronger.append(Change(kind="EVIDENCE_RAISED", check="evidence_required", detail=won))
        for lost in [c for c in old.supporting_cases if c not in new.supporting_cases]:
            weaker.append(
                Change(kind="CASE_REMOVED_FROM_CLAIM", check="supporting_cases", detail=lost)
            )
        for won in [c for c in new.supporting_cases if c not in old.supporting_cases]:
            stronger.append(
                Change(kind="CASE_ADDED_TO_CLAIM", check="supporting_cases", detail=won)
            )
    return ClaimDelta(
        id=claim_id,
        base_verdict=old.verdict if old else None,
        head_verdict=new.verdict if new else None,
        change=verdict,
        weakened=weaker,
        strengthened=stronger,
    )
