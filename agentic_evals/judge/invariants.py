"""Claims derived from invariants: representation matrices and independence (SPEC 5). Pure.

A ``value_bearing`` claim names a ``domain_profile`` that fixes its
representation matrix (ids are exact). The same semantic value in every
representation must produce the same invariant outcome, so the claim is
PROVEN only when every representation has a passing, eligible
``adversarial`` supporting case whose ``representation`` names it.

Seam. Such a fixture must declare a critical seam of type
``value-representation`` (for this claim, or with no ``claim_id``). Its
absence is a load warning (``AE-CLAIM-SEAM``) and the claim reports
``value_representation_seam: false``; it does not change the verdict, since
the seam audit (SPEC 7) is where a missing seam is a critical gap.

Independence. Producer cases are the claim's ``positive`` supporting cases
(the producer run on its own data); verifier cases are its ``negative`` and
``adversarial`` ones. Verifiers must not share the producer's data
generator: when the representations the verifiers cover add nothing to those
the producer's cases cover, the claim is flagged ``independent: false``. The
flag is reported, not a verdict: a claim can be PROVEN and flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from agentic_evals.contract.claims import Seam
from agentic_evals.contract.vocabulary import MATRICES, VALUE_SEAM_TYPE
from agentic_evals.reports.model import ClaimEvidence, Independence


def matrix(profile: str | None) -> tuple[str, ...]:
    """The representations of ``profile`` (empty for no or an unknown profile)."""
    return MATRICES.get(profile, ()) if profile in MATRICES else ()


def _ordered(values: Iterable[str], profile: str | None) -> list[str]:
    """``values`` in matrix order, then any others sorted."""
    wanted = set(values)
    known = [rep for rep in matrix(profile) if rep in wanted]
    return known + sorted(wanted - set(known))


def covered_representations(
    evidence: Sequence[ClaimEvidence], passed: Callable[[str], bool]
) -> set[str]:
    """Representations with a passing, eligible adversarial supporting case."""
    return {
        entry.representation
        for entry in evidence
        if entry.representation
        and entry.type == "adversarial"
        and not entry.ineligible
        and passed(entry.case)
    }


def missing_representations(
    profile: str | None, evidence: Sequence[ClaimEvidence], passed: Callable[[str], bool]
) -> list[str]:
    """The matrix's representations no passing, eligible adversarial case covers."""
    covered = covered_representations(evidence, passed)
    return [rep for rep in matrix(profile) if rep not in covered]


def has_value_seam(seams: Iterable[Seam], claim_id: str) -> bool:
    """Whether a critical ``value-representation`` seam covers the claim ``claim_id``."""
    return any(
        seam.seam_type == VALUE_SEAM_TYPE
        and seam.criticality == "critical"
        and seam.claim_id in (None, claim_id)
        for seam in seams
    )


def independence(evidence: Sequence[ClaimEvidence], profile: str | None) -> Independence:
    """Compare the representations of producer (positive) and verifier cases."""
    eligible = [entry for entry in evidence if not entry.ineligible]
    producers = [entry for entry in eligible if entry.type == "positive"]
    verifiers = [entry for entry in eligible if entry.type != "positive"]
    produced = {entry.representation for entry in producers if entry.representation}
    verified = {entry.representation for entry in verifiers if entry.representation}
    beyond = verified - produced
    return Independence(
        producer_cases=[entry.case for entry in producers],
        verifier_cases=[entry.case for entry in verifiers],
        producer_representations=_ordered(produced, profile),
        verifier_only_representations=_ordered(beyond, profile),
        independent=bool(beyond),
    )
