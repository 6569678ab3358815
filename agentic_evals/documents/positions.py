"""Where every value is: RFC 6901 pointer to 1-based line and column.

Positions of YAML documents come with their parse; those of JSON text are
located by the same walk, only when a finding needs one (see
:class:`~agentic_evals.documents.yaml_walk.LazyPositions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from jsonpointer import JsonPointer

from agentic_evals.documents.findings import Finding, ordered
from agentic_evals.limits import MAX_DEPTH, MAX_VALUES

Position = tuple[int, int]

__all__ = [
    "MAX_DEPTH",
    "MAX_VALUES",
    "Position",
    "TooLarge",
    "locate",
    "locate_all",
    "pointer_to",
    "position_of",
]


def position_of(pointer: str, positions: Mapping[str, Position]) -> Position | None:
    """Return the position of ``pointer``, or of its nearest located ancestor."""
    while True:
        if pointer in positions:
            return positions[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


def pointer_to(parts: list[str | int]) -> str:
    """Return the RFC 6901 pointer to the value at ``parts``."""
    return str(JsonPointer.from_parts(parts).path)


class TooLarge(Exception):
    """Raised inside the node walk when aliases expand past ``MAX_VALUES``."""


def locate(finding: Finding, path: Path, positions: Mapping[str, Position]) -> Finding:
    """Return ``finding`` naming ``path``, with line:column from ``positions`` when it has none."""
    update: dict[str, object] = {"file": str(path)}
    if finding.line is None:
        at = position_of(finding.pointer, positions)
        if at is not None:
            update["line"], update["column"] = at
    return finding.model_copy(update=update)


def locate_all(
    findings: list[Finding], path: Path, positions: Mapping[str, Position]
) -> list[Finding]:
    """Locate ``findings`` in the document at ``path`` and put them in the one order."""
    return ordered(locate(finding, path, positions) for finding in findings)
