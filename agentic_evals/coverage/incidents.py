"""Incident regressions per seam, from the skill's ``fixtures/regressions.json``.

Coverage needs, per record, its ``regression_id``, ``status`` (``ACTIVE``
when absent) and seam ids (``seam_ids``, or the alias ``seams``), and whether
its fail-before-fix is established, judged exactly as ``regressions show``
judges it (:func:`agentic_evals.regressions.audit.audit_registry`). The
registry is loaded by :func:`agentic_evals.regressions.load.load_registry`,
which owns its contract (SPEC 8); when that loader rejects the file, coverage
still reads the records as written (a warning, ``AE-COV-REGISTRY``), since
seams an incident entered through matter even in a registry with a flaw
elsewhere. A missing registry is no registry. RETIRED records guard nothing
any more and are not listed at their seams.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from agentic_evals import clock, codes
from agentic_evals.documents.findings import Finding, finding

if TYPE_CHECKING:
    from agentic_evals.regressions.load import RegistryLoad

REGISTRY: Final = "fixtures/regressions.json"
"""Where a skill keeps its regressions registry, relative to its folder."""
RETIRED: Final = "RETIRED"


class RegressionRef(NamedTuple):
    """What coverage needs of one regression record."""

    regression_id: str
    """The record's id."""
    status: str
    """``ACTIVE`` (default), ``EXEMPT`` or ``RETIRED``, upper-cased (an expired exemption is
    ``ACTIVE``)."""
    seam_ids: tuple[str, ...]
    """Seams the incident entered through."""
    established: bool = False
    """Its fail-before-fix is established, as ``regressions show`` judges it."""
    proof_state: str | None = None
    """Why not (``weak``, ``stale``, ...), as ``regressions show`` says; ``None`` when the
    registry did not load and the record was read as written."""


class RegistryRead(NamedTuple):
    """The registry's records and what was wrong with it."""

    path: str | None
    """The registry file, relative to the skill folder (``None``: there is none)."""
    records: list[RegressionRef]
    """Readable records, in order."""
    findings: list[Finding]
    """Problems reading it."""


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str) and item]
    return []


Problem = tuple[str, str]
"""A JSON pointer and a message."""


def parse_records(document: object) -> tuple[list[RegressionRef], list[Problem]]:
    """Records of a parsed registry (``{"regressions": [...]}`` or a bare list), and problems."""
    raw = document.get("regressions") if isinstance(document, dict) else document
    if not isinstance(raw, list):
        return [], [("", "the registry holds no list of regressions")]
    at = "/regressions" if isinstance(document, dict) else ""
    records: list[RegressionRef] = []
    problems: list[Problem] = []
    for index, entry in enumerate(raw):
        ident = entry.get("regression_id") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(ident, str) or not ident:
            problems.append((f"{at}/{index}", "a record without a string regression_id"))
            continue
        status = entry.get("status")
        seams = _strings(entry.get("seam_ids")) + _strings(entry.get("seams"))
        records.append(
            RegressionRef(
                regression_id=ident,
                status=status.upper() if isinstance(status, str) and status else "ACTIVE",
                seam_ids=tuple(dict.fromkeys(seams)),
            )
        )
    return records, problems


def _rejection(loaded: RegistryLoad) -> Finding:
    counts = Counter(error.code for error in loaded.errors)
    detail = ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(counts.items()))
    errors = f"{len(loaded.errors)} error{'s' if len(loaded.errors) != 1 else ''}"
    message = (
        f"the regressions registry does not load ({errors}: {detail}); "
        "its records are read as written"
    )
    return finding(codes.COV_REGISTRY, "", message, "warning", file=REGISTRY)


def read_registry(skill_dir: Path) -> RegistryRead:
    """Read the regressions registry of the skill at ``skill_dir``, if it has one.

    The registry loader of ``regressions`` comes first; when it rejects the
    file, the parsed document is read tolerantly (:func:`parse_records`).
    """
    from agentic_evals.regressions.audit import audit_registry
    from agentic_evals.regressions.load import load_registry

    path = skill_dir / REGISTRY
    if not path.is_file():
        return RegistryRead(None, [], [])
    loaded = load_registry(path)
    if loaded.model is not None:
        # The verdicts of `regressions show`, from the one rule that decides them.
        rows, _, _ = audit_registry(loaded.model, path.parent, as_of=clock.today())
        records = [
            RegressionRef(
                record.regression_id,
                row.status,
                tuple(record.seam_list),
                row.established_fail_before_fix,
                row.proof_state,
            )
            for record, row in zip(loaded.model.regressions, rows, strict=True)
        ]
        return RegistryRead(REGISTRY, records, [])
    if not isinstance(loaded.document, (dict, list)):
        why = "; ".join(error.message for error in loaded.errors[:2]) or "not a JSON document"
        message = f"the regressions registry cannot be read ({why}); no incidents are listed"
        return RegistryRead(
            REGISTRY, [], [finding(codes.COV_REGISTRY, "", message, "warning", file=REGISTRY)]
        )
    records, problems = parse_records(loaded.document)
    found = [_rejection(loaded)] + [
        finding(codes.COV_REGISTRY, pointer, text, "warning", file=REGISTRY)
        for pointer, text in problems
    ]
    return RegistryRead(REGISTRY, records, found)


def incidents_by_seam(records: list[RegressionRef]) -> dict[str, list[RegressionRef]]:
    """The records that are not RETIRED, per seam id they name."""
    found: dict[str, list[RegressionRef]] = {}
    for record in records:
        if record.status == RETIRED:
            continue
        for seam_id in record.seam_ids:
            found.setdefault(seam_id, []).append(record)
    return found
