"""Rules beyond the schema: uniqueness, references, claims, artifact checks, path safety.

They read the raw document, not the model, so that they run (and report)
even when the schema found errors elsewhere; every access is defensive.
Positions are added by the loader from the pointers.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from pathlib import Path

from jsonpointer import JsonPointer, JsonPointerException

from agentic_evals import codes
from agentic_evals.contract.layout import FIXTURES_DIR
from agentic_evals.contract.placeholders import FIXTURE_DIR, SKILL_ROOT, WORKSPACE, path_root
from agentic_evals.contract.rules.claims import claim_findings
from agentic_evals.contract.rules.isolation import isolation_findings
from agentic_evals.contract.rules.resolved import resolved_findings
from agentic_evals.documents.findings import Finding, finding

Parts = list[str | int]
_COMPARISONS = ("equals", "equals_artifact", "is_artifact")


def semantic_findings(document: object, fixture_dir: Path) -> list[Finding]:
    """Check what the schema cannot say about a fixture document (in its expanded form)."""
    if not isinstance(document, dict):
        return []
    skill_root = document.get("skill_root")
    # Depth of the base of relative paths below the skill tree's root: a fixture's folder
    # named `fixtures` sits one below; a declared skill_root is the base itself.
    depth = 1 if fixture_dir.name == FIXTURES_DIR and not isinstance(skill_root, str) else 0
    found: list[Finding] = _skill_root(skill_root, fixture_dir)
    found += _duplicates(document, "cases", "name", "case name")
    found += _duplicates(document, "capability_claims", "id", "claim id")
    found += _duplicates(document, "seams", "seam_id", "seam id")
    found += _references(document)
    found += _claims(document)
    found += claim_findings(document)
    found += isolation_findings(document)
    workspace = document.get("workspace")
    found += _workspace(workspace, ["workspace"], depth)
    for index, case in _entries(document, "cases"):
        parts: Parts = ["cases", index]
        found += _must_exercise(case, parts)
        found += _case_paths(case, parts, depth, fixture_workspace=isinstance(workspace, dict))
        if "threat_assumption" in case and case.get("type") != "adversarial":
            message = (
                f"threat_assumption is only valid on adversarial cases, not {case.get('type')!r}"
            )
            found.append(finding(codes.SCHEMA_VALUE, [*parts, "threat_assumption"], message))
        for position, check in _entries(_dict(case.get("expected")), "artifacts"):
            found += _artifact(check, [*parts, "expected", "artifacts", position])
    written = {f.pointer for f in found if f.code in (codes.PATH_ESCAPE, codes.SCHEMA_VALUE)}
    return found + resolved_findings(document, fixture_dir, skip=written)


def _skill_root(value: object, fixture_dir: Path) -> list[Finding]:
    """``skill_root`` names a directory, relative to the fixture's folder."""
    if not isinstance(value, str) or not value:
        return []
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", value):
        why = "is absolute: write it relative to the fixture's folder"
    elif "${" in value:
        why = "takes no placeholder: it is relative to the fixture's folder"
    elif "\0" in value:
        why = "holds a NUL byte, which no file name can hold"
    elif not (fixture_dir / value).is_dir():
        why = f"names no directory (from {fixture_dir})"
    else:
        return []
    message = f"skill_root {value!r} {why}"
    return [finding(codes.PATH_SKILL_ROOT, ["skill_root"], message)]


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _entries(container: dict[str, object], key: str) -> Iterator[tuple[int, dict[str, object]]]:
    values = container.get(key)
    if isinstance(values, list):
        for index, value in enumerate(values):
            if isinstance(value, dict):
                yield index, value


def _strings(value: object) -> Iterator[tuple[int, str]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str):
                yield index, item


def _duplicates(document: dict[str, object], key: str, field: str, label: str) -> list[Finding]:
    seen: dict[str, int] = {}
    found: list[Finding] = []
    for index, entry in _entries(document, key):
        value = entry.get(field)
        if not isinstance(value, str):
            continue
        if value in seen:
            message = f"{label} {value!r} is already used by /{key}/{seen[value]}"
            found.append(finding(codes.SCHEMA_DUPLICATE, [key, index, field], message))
        else:
            seen[value] = index
    return found


def _ids(document: dict[str, object], key: str, field: str) -> set[str]:
    return {v for _, entry in _entries(document, key) if isinstance(v := entry.get(field), str)}


def _references(document: dict[str, object]) -> list[Finding]:
    claims = _ids(document, "capability_claims", "id")
    seams = _ids(document, "seams", "seam_id")
    declares_seams = isinstance(document.get("seams"), list) and bool(document["seams"])
    found: list[Finding] = []
    for index, case in _entries(document, "cases"):
        for position, claim in _strings(case.get("supports_claims")):
            if claim not in claims:
                message = f"supports_claims names {claim!r}, which is not a declared claim"
                message += _did_you_mean(claim, claims)
                parts: Parts = ["cases", index, "supports_claims", position]
                found.append(finding(codes.SCHEMA_REFERENCE, parts, message))
        if not declares_seams:
            continue
        for position, seam in _strings(case.get("seams")):
            if seam not in seams:
                message = f"seams names {seam!r}, which is not a declared seam"
                message += _did_you_mean(seam, seams)
                parts = ["cases", index, "seams", position]
                found.append(finding(codes.SCHEMA_REFERENCE, parts, message, "warning"))
    return found


def _did_you_mean(value: str, known: set[str]) -> str:
    close = difflib.get_close_matches(value, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _claims(document: dict[str, object]) -> list[Finding]:
    found: list[Finding] = []
    for index, claim in _entries(document, "capability_claims"):
        parts: Parts = ["capability_claims", index]
        name = claim.get("id", f"#{index}")
        critical = claim.get("criticality", "critical") == "critical"
        if critical and claim.get("claim_semantics") is None:
            message = f"critical claim {name!r} needs claim_semantics (what kind of claim it is)"
            found.append(finding(codes.SCHEMA_CLAIM, parts, message))
        if claim.get("claim_semantics") == "value_bearing" and claim.get("domain_profile") is None:
            message = f"value-bearing claim {name!r} needs a domain_profile"
            found.append(finding(codes.SCHEMA_CLAIM, parts, message))
        required = claim.get("evidence_required")
        if isinstance(required, dict) and not any(value is True for value in required.values()):
            message = f"claim {name!r} requires no evidence class: set at least one to true"
            found.append(finding(codes.SCHEMA_CLAIM, [*parts, "evidence_required"], message))
    return found


def _must_exercise(case: dict[str, object], parts: Parts) -> list[Finding]:
    words = [word for _, word in _strings(case.get("command"))]
    found: list[Finding] = []
    for position, entry in _strings(case.get("must_exercise")):
        if entry and not any(entry in word for word in words):
            message = f"must_exercise entry {entry!r} does not appear in the command"
            found.append(
                finding(codes.SCHEMA_MUST_EXERCISE, [*parts, "must_exercise", position], message)
            )
    return found


def _artifact(check: dict[str, object], parts: Parts) -> list[Finding]:
    found: list[Finding] = []
    if "path" in check and "glob" in check:
        message = "an artifact check takes path or glob, not both"
        found.append(finding(codes.SCHEMA_CONFLICT, parts, message))
    elif "path" not in check and "glob" not in check:
        found.append(finding(codes.SCHEMA_REQUIRED, parts, "missing required key 'path' or 'glob'"))
    if check.get("absent") is True and check.get("exists") is True:
        found.append(finding(codes.SCHEMA_CONFLICT, parts, "absent: true contradicts exists: true"))
    # Presence, not value: `equals: null` is a legitimate expectation.
    comparisons = [key for key in _COMPARISONS if key in check]
    reference = _dict(check.get("equals_artifact"))
    whole = reference.get("compare") in ("bytes", "text")
    if whole:
        found += _whole_file(check, reference, parts)
    # Only comparisons of JSON values need a pointer; compare: bytes|text reads whole files.
    pointed = [key for key in comparisons if not (whole and key == "equals_artifact")]
    if pointed and "json_pointer" not in check:
        message = f"{pointed[0]} needs json_pointer (where in the artifact to compare)"
        found.append(finding(codes.SCHEMA_REQUIRED, parts, message))
    if len(comparisons) > 1:
        message = (
            f"use one of equals, equals_artifact, is_artifact, not {' and '.join(comparisons)}"
        )
        found.append(finding(codes.SCHEMA_CONFLICT, parts, message))
    found += _pointer_value(check.get("json_pointer"), [*parts, "json_pointer"])
    found += _pointer_value(
        reference.get("json_pointer"), [*parts, "equals_artifact", "json_pointer"]
    )
    return found


def _whole_file(
    check: dict[str, object], reference: dict[str, object], parts: Parts
) -> list[Finding]:
    """``compare: bytes|text`` compares whole files: no pointer on either side."""
    how = reference.get("compare")
    found: list[Finding] = []
    for where, holder in ((parts, check), ([*parts, "equals_artifact"], reference)):
        if "json_pointer" in holder:
            message = f"compare: {how} compares whole files; json_pointer applies to compare: json"
            found.append(finding(codes.SCHEMA_CONFLICT, [*where, "json_pointer"], message))
    return found


def _pointer_value(value: object, parts: Parts) -> list[Finding]:
    if not isinstance(value, str):
        return []
    try:
        JsonPointer(value)
    except JsonPointerException as exc:
        message = f"{value!r} is not an RFC 6901 JSON pointer: {exc}"
        return [finding(codes.SCHEMA_VALUE, parts, message)]
    return []


def _escape(path: object, depth: int) -> str | None:
    """Why ``path`` leaves a root it sits ``depth`` directories below, or ``None``."""
    if not isinstance(path, str):
        return None
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        return "is absolute"
    for part in path.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return "leaves the root through '..'"
        elif part not in ("", ".", "**"):
            # "**" may match no directory at all, so it cannot be climbed out of.
            depth += 1
    return None


_PLACEHOLDER_ROOTS = {
    SKILL_ROOT: "skill tree",
    FIXTURE_DIR: "fixture's folder",
    WORKSPACE: "workspace",
}


def _path_finding(path: object, parts: Parts, depth: int, root: str) -> list[Finding]:
    if isinstance(path, str) and "\0" in path:
        message = f"{path!r} holds a NUL byte, which no file name can hold"
        return [finding(codes.SCHEMA_VALUE, parts, message)]
    if isinstance(path, str):
        name, rest = path_root(path)
        if name is not None:
            # A path from a built-in stays inside the directory it names.
            path, depth, root = rest, 0, _PLACEHOLDER_ROOTS[name]
    why = _escape(path, depth)
    if why is None:
        return []
    message = f"{path!r} {why}: paths must stay inside the {root}"
    return [finding(codes.PATH_ESCAPE, parts, message)]


def _workspace(workspace: object, parts: Parts, depth: int) -> list[Finding]:
    if not isinstance(workspace, dict):
        return []
    return _path_finding(workspace.get("input"), [*parts, "input"], depth, "skill tree")


def _case_paths(
    case: dict[str, object], parts: Parts, depth: int, *, fixture_workspace: bool
) -> list[Finding]:
    """Check cwd and artifact paths; with a workspace they resolve inside its copy."""
    found = _workspace(case.get("workspace"), [*parts, "workspace"], depth)
    isolated = fixture_workspace or isinstance(case.get("workspace"), dict)
    base, root = (0, "workspace") if isolated else (depth, "skill tree")
    found += _path_finding(case.get("cwd"), [*parts, "cwd"], base, root)
    for position, check in _entries(_dict(case.get("expected")), "artifacts"):
        at: Parts = [*parts, "expected", "artifacts", position]
        for key in ("path", "glob"):
            found += _path_finding(check.get(key), [*at, key], base, root)
        reference = _dict(check.get("equals_artifact"))
        found += _path_finding(reference.get("path"), [*at, "equals_artifact", "path"], base, root)
    return found
