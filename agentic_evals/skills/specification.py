"""The front matter rules of the Agent Skills specification, as audit findings.

The specification allows six keys at the top of a ``SKILL.md`` front matter
and its packagers refuse any other: ``name`` (1 to 64 characters, lowercase
letters, digits and hyphens, no hyphen first, last or doubled, the same as the
skill's folder), ``description`` (non-empty, at most 1024 characters),
``license`` (a string), ``compatibility`` (at most 500 characters),
``metadata`` (string keys to string values) and ``allowed-tools`` (a
space-separated string).

Findings: ``EVAL009`` (warning) a key the specification does not allow at
the top, with the ``metadata`` spelling for the keys this tool reads there
(``composes``, ``provides``, ``eval_not_required``); ``EVAL010`` (error) the
name, ``EVAL011`` (error) the description, ``EVAL012`` the other fields
(error; a warning for a ``metadata`` value that is no string, such as a YAML
list, which this tool reads but the specification does not allow).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, Severity, finding
from agentic_evals.skills.frontmatter import FrontMatter

ALLOWED_KEYS: Final = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)
"""The top-level keys the specification allows."""
READ_FROM_METADATA: Final = ("composes", "provides", "eval_not_required")
"""The keys this tool reads, spelled ``metadata.<key>`` by the specification."""
NAME_MAX, DESCRIPTION_MAX, COMPATIBILITY_MAX = 64, 1024, 500
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def specification_findings(front: FrontMatter, folder: str) -> list[Finding]:
    """What the specification's validator would refuse in ``front`` (of the skill ``folder``)."""
    data = front.data
    if data is None:
        return []  # EVAL003 already says the front matter cannot be read
    lines = front.key_lines
    found = [_key_finding(key, lines) for key in data if key not in ALLOWED_KEYS]
    found += _name(data.get("name"), folder, lines)
    found += _description(data.get("description"), lines)
    found += _fields(data, lines)
    return found


def _at(
    code: str, message: str, lines: Mapping[str, int], key: str, severity: Severity = "error"
) -> Finding:
    return finding(code, "", message, severity, file="SKILL.md", line=lines.get(key))


def _key_finding(key: str, lines: Mapping[str, int]) -> Finding:
    if key in READ_FROM_METADATA:
        message = (
            f"top-level {key!r} is not allowed by the Agent Skills specification (packagers "
            f"refuse the skill): it is read, but move it under metadata as "
            f"'metadata: {{{key}: ...}}'"
        )
    else:
        message = (
            f"top-level {key!r} is not allowed by the Agent Skills specification (packagers "
            "refuse the skill): move it under metadata"
        )
    return _at(codes.EVAL_SPEC_KEY, message, lines, key, "warning")


def _name(value: object, folder: str, lines: Mapping[str, int]) -> list[Finding]:
    if value is None:
        why = "is missing: the specification requires it"
    elif not isinstance(value, str):
        why = f"must be a string, got {type(value).__name__}"
    elif not value or len(value) > NAME_MAX:
        why = f"{value!r} must have 1 to {NAME_MAX} characters (it has {len(value)})"
    elif not _NAME.fullmatch(value):
        why = (
            f"{value!r} may hold only lowercase letters, digits and single hyphens, "
            "neither first nor last"
        )
    elif value != folder:
        why = f"{value!r} must be the skill's folder name, {folder!r}"
    else:
        return []
    return [_at(codes.EVAL_SPEC_NAME, f"front matter name {why}", lines, "name")]


def _description(value: object, lines: Mapping[str, int]) -> list[Finding]:
    if value is None:
        why = "is missing: the specification requires it"
    elif not isinstance(value, str):
        why = f"must be a string, got {type(value).__name__}"
    elif not value.strip():
        why = "is empty"
    elif len(value) > DESCRIPTION_MAX:
        why = f"has {len(value)} characters, more than {DESCRIPTION_MAX}"
    else:
        return []
    return [
        _at(codes.EVAL_SPEC_DESCRIPTION, f"front matter description {why}", lines, "description")
    ]


def _fields(data: Mapping[str, object], lines: Mapping[str, int]) -> list[Finding]:
    found: list[Finding] = []
    for key in ("license", "allowed-tools", "compatibility"):
        value = data.get(key)
        if key in data and not isinstance(value, str):
            message = f"front matter {key} must be a string, got {type(value).__name__}"
            found.append(_at(codes.EVAL_SPEC_FIELD, message, lines, key))
    compatibility = data.get("compatibility")
    if isinstance(compatibility, str) and not 1 <= len(compatibility) <= COMPATIBILITY_MAX:
        message = f"front matter compatibility must have 1 to {COMPATIBILITY_MAX} characters"
        found.append(_at(codes.EVAL_SPEC_FIELD, message, lines, "compatibility"))
    metadata = data.get("metadata")
    if "metadata" in data and not isinstance(metadata, dict):
        message = f"front matter metadata must be a mapping, got {type(metadata).__name__}"
        found.append(_at(codes.EVAL_SPEC_FIELD, message, lines, "metadata"))
    for key, value in metadata.items() if isinstance(metadata, dict) else ():
        if not isinstance(value, str):
            hint = (
                " (write a list as one comma-separated string)" if isinstance(value, list) else ""
            )
            message = (
                f"front matter metadata.{key} must be a string, got {type(value).__name__}{hint}"
            )
            found.append(_at(codes.EVAL_SPEC_FIELD, message, lines, "metadata", "warning"))
    return found
