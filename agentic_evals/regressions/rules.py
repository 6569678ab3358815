"""Semantic rules of a regression registry, beyond what its schema can say. Pure.

Each rule reads the parsed document (any shape: the schema reports wrong
types, so a value of the wrong type is skipped here) and returns findings:

- ``regression_id`` is unique (AE-SCHEMA-DUPLICATE, pointing at the repeat);
- a ``RETIRED`` record says why in ``retirement`` (AE-REG-RETIREMENT);
- aliases (``claims_threatened``, ``seams``, ``fail_before_fix.last_proven``) load
  with a warning (AE-REG-ALIAS); written next to their canonical key with a
  different value, they are an error (AE-SCHEMA-CONFLICT);
- dates are real calendar dates (AE-SCHEMA-VALUE);
- ``retained_fixture`` stays inside the skill tree and ``fail_before_fix.cwd``
  inside the skill folder (AE-PATH-ESCAPE).

The rules of the proof itself (its form, its ``failure_code``, exemptions)
are in :mod:`.proof_rules`.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.positions import pointer_to

Parts = list[str | int]

_ALIASES = (("claims_threatened", "claim_ids"), ("seams", "seam_ids"))


def registry_findings(document: object, *, in_fixtures_dir: bool) -> list[Finding]:
    """Every semantic finding of a registry document.

    Args:
        document: The parsed registry.
        in_fixtures_dir: The registry sits in the skill's ``fixtures/`` folder, so
            ``retained_fixture`` may climb one level (``../x.json``) and stay inside.
    """
    found: list[Finding] = []
    first_seen: dict[str, int] = {}
    for index, record in _records(document):
        parts: Parts = ["regressions", index]
        regression_id = record.get("regression_id")
        if isinstance(regression_id, str):
            if regression_id in first_seen:
                message = (
                    f"duplicate regression_id {regression_id!r} "
                    f"(first at /regressions/{first_seen[regression_id]})"
                )
                found.append(finding(codes.SCHEMA_DUPLICATE, [*parts, "regression_id"], message))
            first_seen.setdefault(regression_id, index)
        found += _record_findings(record, parts, in_fixtures_dir=in_fixtures_dir)
    for index, incident in items(document, "incidents"):
        found += date_findings(incident.get("date"), ["incidents", index, "date"])
    return found


def _records(document: object) -> Iterator[tuple[int, dict[str, object]]]:
    return items(document, "regressions")


def items(document: object, key: str) -> Iterator[tuple[int, dict[str, object]]]:
    """The objects of the list ``document[key]``, with their index (anything else skipped)."""
    values = document.get(key) if isinstance(document, dict) else None
    for index, value in enumerate(values if isinstance(values, list) else []):
        if isinstance(value, dict):
            yield index, value


def _record_findings(
    record: dict[str, object], parts: Parts, *, in_fixtures_dir: bool
) -> list[Finding]:
    found: list[Finding] = []
    retirement = record.get("retirement")
    if record.get("status") == "RETIRED" and (retirement is None or retirement in ("", {})):
        message = "a RETIRED regression needs retirement: why and when it was retired"
        found.append(finding(codes.REG_RETIREMENT, parts, message))
    for alias, canonical in _ALIASES:
        found += _alias_findings(record, parts, alias, canonical, record, parts)
    proof = record.get("fail_before_fix")
    if isinstance(proof, dict):
        proof_parts: Parts = [*parts, "fail_before_fix"]
        found += _alias_findings(proof, proof_parts, "last_proven", "last_proven", record, parts)
        found += date_findings(proof.get("last_proven"), [*proof_parts, "last_proven"])
        found += escape_findings(proof.get("cwd"), [*proof_parts, "cwd"], 0, "skill folder")
    for key in ("last_proven", "first_added"):
        found += date_findings(record.get(key), [*parts, key])
    depth = 1 if in_fixtures_dir else 0
    found += escape_findings(
        record.get("retained_fixture"), [*parts, "retained_fixture"], depth, "skill tree"
    )
    return found


def _alias_findings(
    holder: dict[str, object],
    holder_parts: Parts,
    alias: str,
    canonical: str,
    record: dict[str, object],
    record_parts: Parts,
) -> list[Finding]:
    """The alias ``holder[alias]`` of ``record[canonical]``: a warning, or a conflict."""
    if alias not in holder or (holder is record and alias == canonical):
        return []
    where = pointer_to([*record_parts, canonical])
    if canonical in record and record[canonical] != holder[alias]:
        message = f"{alias!r} and {where} disagree: keep {where} only"
        return [finding(codes.SCHEMA_CONFLICT, [*holder_parts, alias], message)]
    message = f"{alias!r} is an alias: write {where} instead"
    return [finding(codes.REG_ALIAS, [*holder_parts, alias], message, "warning")]


def date_findings(value: object, parts: Parts) -> list[Finding]:
    """AE-SCHEMA-VALUE when ``value`` has the shape of an ISO date but is no calendar date."""
    if not isinstance(value, str) or not re.match(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return []  # the schema reports a wrong type or shape
    if parse_date(value) is None:
        message = f"{value!r} is not a calendar date (YYYY-MM-DD)"
        return [finding(codes.SCHEMA_VALUE, parts, message)]
    return []


def parse_date(value: str) -> _dt.date | None:
    """The date of an ISO date or timestamp string, or ``None`` when it is not one."""
    try:
        return _dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


def escape_findings(path: object, parts: Parts, depth: int, root: str) -> list[Finding]:
    """AE-PATH-ESCAPE when ``path`` is absolute or climbs more than ``depth`` levels."""
    if not isinstance(path, str):
        return []
    why = None
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        why = "is absolute"
    else:
        for part in path.replace("\\", "/").split("/"):
            if part == "..":
                depth -= 1
                if depth < 0:
                    why = "leaves it through '..'"
                    break
            elif part not in ("", "."):
                depth += 1
    if why is None:
        return []
    return [finding(codes.PATH_ESCAPE, parts, f"{path!r} {why}: it must stay inside the {root}")]
