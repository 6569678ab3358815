"""Where every value is: RFC 6901 pointer to 1-based line and column.

Positions of YAML documents come with their parse
(:mod:`~agentic_evals.documents.yaml_walk`); those of JSON text are located
the same way, but only when a finding needs one (:class:`LazyPositions`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from jsonpointer import JsonPointer

from agentic_evals.documents.findings import Finding

if TYPE_CHECKING:
    from agentic_evals.documents.yaml_walk import NodeBuilder

Position = tuple[int, int]

MAX_DEPTH = 64
"""Deeper nesting is refused: no fixture needs it, and the validators recurse."""
MAX_VALUES = 200_000
"""Values after expanding YAML aliases; more is an alias bomb, not a fixture."""


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


class LazyPositions(Mapping[str, Position]):
    """Positions of JSON text, located only when first asked for.

    Composing JSON as YAML to find line and column costs far more than
    parsing it, and positions are only needed when there is something to
    report: a valid fixture never pays for them.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._walk: NodeBuilder | None = None
        self._done = False

    def _builder(self) -> NodeBuilder | None:
        if not self._done:
            from agentic_evals.documents.yaml_walk import compose_positions

            self._walk = compose_positions(self._text)
            self._done = True
        return self._walk

    @property
    def duplicates(self) -> Mapping[tuple[str, str], Position]:
        """Where each repeated key (by object pointer and key) was seen again."""
        walk = self._builder()
        return walk.duplicates if walk else {}

    def _positions(self) -> Mapping[str, Position]:
        walk = self._builder()
        return walk.positions if walk else {}

    def __getitem__(self, pointer: str) -> Position:
        return self._positions()[pointer]

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())


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
    """Locate ``findings``, drop exact repeats, and put errors first (stable otherwise)."""
    located: dict[tuple[str, str, str, str], Finding] = {}
    for finding in findings:
        key = (finding.severity, finding.code, finding.pointer, finding.message)
        located.setdefault(key, locate(finding, path, positions))
    return sorted(located.values(), key=lambda finding: finding.severity != "error")
