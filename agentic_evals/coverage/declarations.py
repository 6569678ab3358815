"""Seams and claims as the fixtures declare them, read tolerantly from the documents. Pure.

Coverage is static and must say something about fixtures the loader
rejects, so seams and claims are read from the parsed document rather than
from the validated models: a seam is kept whenever it has a string
``seam_id``; every other oddity becomes a finding.

Criticality. A seam's ``criticality`` is free text. The verdict uses a tier:
``critical`` (and an absent value, the SPEC default) and ``high`` are
critical; ``important`` and ``medium`` are important; ``optional`` and
``low`` are optional. ``high`` is treated as critical because the author
flagged the seam as risky and under-gating is the worse mistake; any other
value is also treated as critical (fail closed). Values other than the three
SPEC words are reported (``AE-COV-CRITICALITY``).

Seam types. ``seam_type`` is free text too; a missing one is a warning
(``AE-COV-SEAM-TYPE-MISSING``) and one outside :data:`KNOWN_SEAM_TYPES` (compared
case- and space-insensitively) is an info finding with a "did you mean" hint
(``AE-COV-SEAM-TYPE-UNKNOWN``). Neither changes coverage.
"""

from __future__ import annotations

import difflib
from typing import Final, NamedTuple

from agentic_evals import codes
from agentic_evals.contract.vocabulary import CRITICALITIES, EVIDENCE_CLASSES, Criticality
from agentic_evals.documents.findings import Finding, Severity, finding

TIERS: Final[dict[str, Criticality]] = {
    "critical": "critical",
    "high": "critical",
    "important": "important",
    "medium": "important",
    "optional": "optional",
    "low": "optional",
}
"""Criticality as written (lower case) -> the tier the verdict uses."""

KNOWN_SEAM_TYPES: Final = frozenset(
    {"value-representation", "typed-boundary", "pure deterministic transform", "static contract"}
    | {"cli", "cli/json", "process exit code", "process lifecycle", "process tracing"}
    | {"process/concurrency", "scheduler/concurrency", "filesystem/process"}
    | {"filesystem/security", "filesystem/schema", "load-time gate", "report artifact"}
    | {"evidence qualification", "receipt/status projection", "memory/write-readback"}
    | {"persistent state/database/index", "restart/resume/idempotency"}
    | {"external http/api/provider", "browser/ui transport", "browser/ui rendering"}
    | {"multi-agent/orchestration", "security/compliance/human-authority"}
    | {"capability-boundary", "requirements/spec", "deployment/runtime"}
)
"""The documented seam-type vocabulary (lower case): the recurring types of real fixtures."""


class SeamDecl(NamedTuple):
    """One seam as declared (merged over the fixtures that declare it)."""

    seam_id: str
    """The seam id."""
    seam_type: str
    """As written; ``""`` when absent."""
    criticality: str
    """As written; ``critical`` when absent."""
    tier: Criticality
    """The tier the verdict uses."""
    required_evidence: tuple[str, ...]
    """Required classes (unknown names kept: they can never be met)."""
    claim_id: str | None
    """The claim it belongs to."""
    declared_in: tuple[str, ...]
    """Fixture files that declare it."""


class ClaimDecl(NamedTuple):
    """What coverage needs of a capability claim."""

    claim_id: str
    """The claim id."""
    semantics: str | None
    """``claim_semantics``."""
    evidence_required: tuple[str, ...]
    """Its required classes."""
    file: str
    """The fixture file that declares it."""


class Declarations(NamedTuple):
    """Seams and claims of one fixture document, and what was odd about them."""

    seams: list[SeamDecl]
    """Readable seams, in order."""
    claims: list[ClaimDecl]
    """Readable claims, in order."""
    findings: list[Finding]
    """Findings about them."""


def tier_of(criticality: str) -> Criticality:
    """The tier of a written criticality (unknown values are critical: fail closed)."""
    return TIERS.get(criticality.strip().lower(), "critical")


def class_list(value: object) -> tuple[str, ...]:
    """Classes from ``[class, ...]`` or ``{class: true}``; anything else gives none."""
    if isinstance(value, list):
        names = [item for item in value if isinstance(item, str)]
    elif isinstance(value, dict):
        names = [key for key, wanted in value.items() if isinstance(key, str) and wanted is True]
    else:
        names = []
    return tuple(dict.fromkeys(names))


def _entries(document: object, key: str) -> list[tuple[int, object]]:
    if not isinstance(document, dict) or not isinstance(document.get(key), list):
        return []
    return list(enumerate(document[key]))


def _text(entry: dict[str, object], key: str) -> str | None:
    value = entry.get(key)
    return value if isinstance(value, str) else None


def read_declarations(document: object, file: str) -> Declarations:
    """Read the seams and claims of one parsed fixture ``document`` living at ``file``."""
    seams: list[SeamDecl] = []
    found: list[Finding] = []
    for index, entry in _entries(document, "seams"):
        pointer = f"/seams/{index}"
        seam_id = _text(entry, "seam_id") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not seam_id:
            message = "a seam without a non-empty string seam_id cannot be audited"
            found.append(finding(codes.COV_SEAM_UNREADABLE, pointer, message, "error", file=file))
            continue
        seam = SeamDecl(
            seam_id=seam_id,
            seam_type=_text(entry, "seam_type") or "",
            criticality=_text(entry, "criticality") or "critical",
            tier=tier_of(_text(entry, "criticality") or "critical"),
            required_evidence=class_list(entry.get("required_evidence")),
            claim_id=_text(entry, "claim_id"),
            declared_in=(file,),
        )
        seams.append(seam)
        found += seam_findings(seam, file, pointer)
    claims = [
        ClaimDecl(
            claim_id=claim_id,
            semantics=_text(entry, "claim_semantics"),
            evidence_required=class_list(entry.get("evidence_required")),
            file=file,
        )
        for _, entry in _entries(document, "capability_claims")
        if isinstance(entry, dict) and (claim_id := _text(entry, "id"))
    ]
    return Declarations(seams, claims, found)


def seam_findings(seam: SeamDecl, file: str, pointer: str) -> list[Finding]:
    """What is odd about one seam's type, criticality and required evidence."""
    found: list[Finding] = []

    def add(code: str, severity: Severity, message: str, at: str) -> None:
        found.append(finding(code, at, message, severity, file=file, seam_id=seam.seam_id))

    if not seam.seam_type.strip():
        add(codes.COV_SEAM_TYPE_MISSING, "warning", "the seam declares no seam_type", pointer)
    elif (normal := " ".join(seam.seam_type.lower().split())) not in KNOWN_SEAM_TYPES:
        close = difflib.get_close_matches(normal, sorted(KNOWN_SEAM_TYPES), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        message = f"seam_type {seam.seam_type!r} is outside the documented vocabulary{hint}"
        add(codes.COV_SEAM_TYPE_UNKNOWN, "info", message, f"{pointer}/seam_type")
    if seam.criticality.strip().lower() not in CRITICALITIES:
        message = (
            f"criticality {seam.criticality!r} is not critical, important or optional; "
            f"coverage treats it as {seam.tier}"
        )
        add(codes.COV_CRITICALITY, "warning", message, f"{pointer}/criticality")
    unknown = [name for name in seam.required_evidence if name not in EVIDENCE_CLASSES]
    if not seam.required_evidence:
        message = "required_evidence names no class; any capable case will cover the seam"
        add(codes.COV_REQUIRED_EVIDENCE, "warning", message, pointer)
    elif unknown:
        message = f"required_evidence names unknown classes {unknown}, which no case can meet"
        add(codes.COV_REQUIRED_EVIDENCE, "warning", message, f"{pointer}/required_evidence")
    return found
