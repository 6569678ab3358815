"""Load-time rules of capability claims beyond the schema (SPEC sections 4 to 6).

The schema already rejects unknown evidence classes, an empty
``evidence_required`` list and incomplete threat assumptions;
:mod:`.semantic` checks duplicate claim ids, undeclared ``supports_claims``,
claim semantics and domain profiles, and threat assumptions on
non-adversarial cases. This module adds:

- ``representation`` must be in the matrix of every value-bearing claim the
  case supports (error ``AE-CLAIM-REPRESENTATION``: a misspelt id would leave a
  representation silently uncovered); on a case that supports no
  value-bearing claim it is a warning (it counts for nothing);
- a value-bearing claim without a critical ``value-representation`` seam is a
  warning (``AE-CLAIM-SEAM``);
- an exemption that is incomplete, has an unreadable ``expires`` or names a
  class the claim does not require is a warning (``AE-CLAIM-EXEMPTION``): it
  is not a load error, it is ignored at run time and listed as ignored;
- ``admitted_evidence`` must name declared cases (``AE-SCHEMA-REFERENCE``),
  once each (``AE-SCHEMA-DUPLICATE``), pin at least one well-formed sha256
  (``AE-CLAIM-ADMISSION``), and should name a case supporting the claim
  (warning).

Like :mod:`.semantic`, the rules read the raw document defensively.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterator
from typing import Final

from agentic_evals import codes
from agentic_evals.contract.vocabulary import MATRICES, VALUE_BEARING, VALUE_SEAM_TYPE
from agentic_evals.documents.findings import Finding, finding

Parts = list[str | int]
_SHA256 = re.compile(r"(sha256:)?[0-9a-fA-F]{64}")
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")

REQUIRED_FIELDS: Final = ("evidence_class", "reason_code", "justification", "owner", "expires")
"""What an exemption must name to apply (SPEC section 4)."""


def parse_expires(text: str) -> dt.date | dt.datetime | None:
    """Read ``expires``: a date (``YYYY-MM-DD``) or an ISO datetime; None when neither."""
    text = text.strip()
    try:
        if _DATE_ONLY.fullmatch(text):
            return dt.date.fromisoformat(text)
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _entries(container: object, key: str) -> Iterator[tuple[int, dict[str, object]]]:
    values = container.get(key) if isinstance(container, dict) else None
    if isinstance(values, list):
        for index, value in enumerate(values):
            if isinstance(value, dict):
                yield index, value


def _required(claim: dict[str, object]) -> set[str]:
    required = claim.get("evidence_required")
    if isinstance(required, dict):
        return {key for key, value in required.items() if value is True}
    if isinstance(required, list):
        return {item for item in required if isinstance(item, str)}
    return set()


def claim_findings(document: dict[str, object]) -> list[Finding]:
    """Every claim rule finding of a raw fixture document."""
    claims = dict(_entries(document, "capability_claims"))
    found = _representations(document, claims)
    cases = {
        name for _, case in _entries(document, "cases") if isinstance(name := case.get("name"), str)
    }
    for index, claim in claims.items():
        parts: Parts = ["capability_claims", index]
        found += _seam(document, claim, parts)
        found += _exemptions(claim, parts)
        found += _admitted(document, claim, parts, cases)
    return found


def _matrices(claims: dict[int, dict[str, object]]) -> dict[str, tuple[str, ...]]:
    """Claim id to the representation matrix of each value-bearing claim."""
    return {
        claim_id: MATRICES[profile]
        for claim in claims.values()
        if claim.get("claim_semantics") == VALUE_BEARING
        and isinstance(claim_id := claim.get("id"), str)
        and isinstance(profile := claim.get("domain_profile"), str)
        and profile in MATRICES
    }


def _representations(
    document: dict[str, object], claims: dict[int, dict[str, object]]
) -> list[Finding]:
    matrices = _matrices(claims)
    found: list[Finding] = []
    for index, case in _entries(document, "cases"):
        representation = case.get("representation")
        if not isinstance(representation, str):
            continue
        parts: Parts = ["cases", index, "representation"]
        supported = case.get("supports_claims")
        names = [c for c in supported if isinstance(c, str)] if isinstance(supported, list) else []
        bearing = [name for name in names if name in matrices]
        if not bearing:
            message = (
                f"representation {representation!r} counts for nothing: the case supports "
                "no value-bearing claim with a domain_profile"
            )
            found.append(finding(codes.CLAIM_REPRESENTATION, parts, message, "warning"))
        for name in bearing:
            if representation not in matrices[name]:
                hint = _closest(representation, matrices[name])
                known = ", ".join(matrices[name])
                message = (
                    f"representation {representation!r} is not in the matrix of claim "
                    f"{name!r} ({known}){hint}"
                )
                found.append(finding(codes.CLAIM_REPRESENTATION, parts, message))
    return found


def _closest(value: str, known: tuple[str, ...]) -> str:
    """A "did you mean" hint; ids are exact, so a difference in case is the likeliest slip."""
    same = [item for item in known if item.lower() == value.lower()]
    close = same or difflib.get_close_matches(value, known, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""


def _seam(document: dict[str, object], claim: dict[str, object], parts: Parts) -> list[Finding]:
    if claim.get("claim_semantics") != VALUE_BEARING:
        return []
    claim_id = claim.get("id")
    for _, seam in _entries(document, "seams"):
        if (
            seam.get("seam_type") == VALUE_SEAM_TYPE
            and seam.get("criticality", "critical") == "critical"
            and seam.get("claim_id") in (None, claim_id)
        ):
            return []
    message = (
        f"value-bearing claim {claim_id!r} has no critical seam of type "
        f"{VALUE_SEAM_TYPE!r}: declare one (seam_id, seam_type, criticality: critical, "
        "required_evidence, claim_id)"
    )
    return [finding(codes.CLAIM_SEAM, parts, message, "warning")]


def _exemption_problem(
    exemption: dict[str, object], required: set[str]
) -> tuple[str | None, str] | None:
    """Why an exemption will be ignored: the offending key (None: all of it) and a message."""
    missing = [
        name
        for name in REQUIRED_FIELDS
        if not isinstance(value := exemption.get(name), str) or not value.strip()
    ]
    if missing:
        return None, f"exemption lacks {', '.join(missing)}: it is incomplete and will be ignored"
    expires = exemption.get("expires")
    if isinstance(expires, str) and parse_expires(expires) is None:
        message = f"expires {expires!r} is not an ISO date or datetime: it will be ignored"
        return "expires", message
    evidence_class = exemption.get("evidence_class")
    if isinstance(evidence_class, str) and evidence_class not in required:
        message = f"the claim does not require {evidence_class!r}: the exemption exempts nothing"
        return "evidence_class", message
    return None


def _exemptions(claim: dict[str, object], parts: Parts) -> list[Finding]:
    required = _required(claim)
    found: list[Finding] = []
    for index, exemption in _entries(claim, "exemptions"):
        problem = _exemption_problem(exemption, required)
        if problem is not None:
            key, message = problem
            at: Parts = [*parts, "exemptions", index, *([key] if key else [])]
            found.append(finding(codes.CLAIM_EXEMPTION, at, message, "warning"))
    return found


def _admitted(
    document: dict[str, object], claim: dict[str, object], parts: Parts, cases: set[str]
) -> list[Finding]:
    supporters = {
        name
        for _, case in _entries(document, "cases")
        if isinstance(name := case.get("name"), str)
        and isinstance(supported := case.get("supports_claims"), list)
        and claim.get("id") in supported
    }
    seen: dict[str, int] = {}
    found: list[Finding] = []
    for index, entry in _entries(claim, "admitted_evidence"):
        at: Parts = [*parts, "admitted_evidence", index]
        name = entry.get("case")
        if isinstance(name, str):
            if name in seen:
                message = f"case {name!r} is already admitted by admitted_evidence/{seen[name]}"
                found.append(finding(codes.SCHEMA_DUPLICATE, [*at, "case"], message))
            seen.setdefault(name, index)
            if name not in cases:
                close = difflib.get_close_matches(name, sorted(cases), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                message = f"admitted_evidence names {name!r}, which is not a declared case{hint}"
                found.append(finding(codes.SCHEMA_REFERENCE, [*at, "case"], message))
            elif name not in supporters:
                message = (
                    f"admitted case {name!r} does not list {claim.get('id')!r} in supports_claims"
                )
                found.append(finding(codes.CLAIM_ADMISSION, [*at, "case"], message, "warning"))
        keys = ("test_source_sha256", "oracle_sha256", "claim_sha256")
        hashes = {key: entry.get(key) for key in keys}
        if all(value is None for value in hashes.values()):
            message = (
                "admitted evidence pins no hash: give test_source_sha256, oracle_sha256 "
                "and/or claim_sha256"
            )
            found.append(finding(codes.CLAIM_ADMISSION, at, message))
        for key, value in hashes.items():
            if isinstance(value, str) and not _SHA256.fullmatch(value):
                message = f"{key} {value!r} is not a sha256 (64 hex digits, optionally sha256:)"
                found.append(finding(codes.CLAIM_ADMISSION, [*at, key], message))
    return found
