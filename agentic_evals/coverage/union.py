"""The union of a skill's fixtures: one seam list, one claim list, and what does not add up. Pure.

A seam declared in several fixtures is one seam: the strictest tier wins,
required classes are unioned (fail closed), the first non-empty
``seam_type`` and ``claim_id`` are kept, and differing declarations are
reported (``AE-COV-SEAM-CONFLICT``). Claims are unioned by id (first wins).
Seam ids that cases list but no fixture declares, and seam ids a regression
names but no fixture declares, are reported too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_evals import codes
from agentic_evals.contract.vocabulary import EVIDENCE_CLASSES
from agentic_evals.coverage.declarations import ClaimDecl, SeamDecl
from agentic_evals.coverage.guards import CaseFacts
from agentic_evals.coverage.incidents import RegressionRef
from agentic_evals.documents.findings import Finding, finding

_TIER_RANK = {"critical": 0, "important": 1, "optional": 2}


def class_order(names: Iterable[str]) -> list[str]:
    """``names`` without repeats, the six classes in their usual order, then others sorted."""
    wanted = set(names)
    known = [name for name in EVIDENCE_CLASSES if name in wanted]
    return known + sorted(wanted - set(known))


def _merge(prior: SeamDecl, seam: SeamDecl) -> SeamDecl:
    stricter = seam if _TIER_RANK[seam.tier] < _TIER_RANK[prior.tier] else prior
    return SeamDecl(
        seam_id=prior.seam_id,
        seam_type=prior.seam_type or seam.seam_type,
        criticality=stricter.criticality,
        tier=stricter.tier,
        required_evidence=tuple(dict.fromkeys(prior.required_evidence + seam.required_evidence)),
        claim_id=prior.claim_id or seam.claim_id,
        declared_in=tuple(dict.fromkeys(prior.declared_in + seam.declared_in)),
    )


def _shape(seam: SeamDecl) -> tuple[object, ...]:
    return (seam.seam_type, seam.tier, frozenset(seam.required_evidence), seam.claim_id)


def merge_seams(seams: Iterable[SeamDecl]) -> tuple[list[SeamDecl], list[Finding]]:
    """One declaration per seam id, in first-declaration order, and the conflicts found."""
    merged: dict[str, SeamDecl] = {}
    found: list[Finding] = []
    for seam in seams:
        prior = merged.get(seam.seam_id)
        if prior is None:
            merged[seam.seam_id] = seam
            continue
        if _shape(prior) != _shape(seam):
            message = (
                f"seam {seam.seam_id!r} is declared differently in {', '.join(prior.declared_in)} "
                f"and {', '.join(seam.declared_in)}; coverage uses the strictest tier and the "
                "union of the required classes"
            )
            found.append(
                finding(
                    codes.COV_SEAM_CONFLICT,
                    "",
                    message,
                    "warning",
                    file=seam.declared_in[0],
                    seam_id=seam.seam_id,
                )
            )
        merged[seam.seam_id] = _merge(prior, seam)
    return list(merged.values()), found


def merge_claims(claims: Iterable[ClaimDecl]) -> list[ClaimDecl]:
    """One claim per id (the first declaration wins), in order."""
    merged: dict[str, ClaimDecl] = {}
    for claim in claims:
        merged.setdefault(claim.claim_id, claim)
    return list(merged.values())


def undeclared_seams(
    cases: Sequence[CaseFacts], declared: set[str]
) -> tuple[list[str], list[Finding]]:
    """Seam ids that cases list but no fixture declares (sorted), one finding per use."""
    found: list[Finding] = []
    ids: set[str] = set()
    for case in cases:
        for position, seam_id in enumerate(case.seams):
            if seam_id in declared:
                continue
            ids.add(seam_id)
            message = (
                f"case {case.ref!r} lists seam {seam_id!r}, which no fixture declares: "
                "declare it (seam_id, seam_type, criticality, required_evidence) or fix the id"
            )
            found.append(
                finding(
                    codes.COV_UNDECLARED_SEAM,
                    f"{case.pointer}/seams/{position}",
                    message,
                    "warning",
                    file=case.file,
                    seam_id=seam_id,
                    case=case.ref,
                )
            )
    return sorted(ids), found


def unknown_regression_seams(
    records: Sequence[RegressionRef], declared: set[str], registry: str | None
) -> list[Finding]:
    """One info finding per regression that names a seam no fixture declares."""
    found: list[Finding] = []
    for record in records:
        unknown = [seam_id for seam_id in record.seam_ids if seam_id not in declared]
        if unknown:
            message = (
                f"regression {record.regression_id!r} names seams no fixture declares: "
                f"{', '.join(unknown)}"
            )
            found.append(finding(codes.COV_REGRESSION_SEAM, "", message, "info", file=registry))
    return found
