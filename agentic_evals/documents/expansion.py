"""A document as it is checked, and the way back to the document as written.

Some document kinds are checked in an *expanded* form (a fixture's defaults
merged into its cases, a parametrized case turned into several). The
pipeline checks the expanded document, and every finding it produces is
then taken back to the document as written: its pointer becomes the pointer
of the value it came from (so line and column are that value's), and a
finding about one variant of an expanded value names the variant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from agentic_evals.documents.findings import Finding
from agentic_evals.documents.positions import Position


def escape(key: str) -> str:
    """``key`` as one RFC 6901 reference token."""
    return key.replace("~", "~0").replace("/", "~1")


class Variant(NamedTuple):
    """One of the values a single value of the written document expanded into."""

    source: str
    """The pointer of the written value."""
    label: str
    """How messages name this variant (``name[value]``)."""
    siblings: int
    """How many variants the written value expanded into."""


def _ancestors(pointer: str) -> Iterator[str]:
    """``pointer`` and each of its ancestors, the nearest first (ending with ``""``)."""
    while True:
        yield pointer
        if not pointer:
            return
        pointer = pointer.rsplit("/", 1)[0]


@dataclass(frozen=True)
class Expanded:
    """A document's expanded form and the way back to the document as written."""

    document: object
    """The expanded document."""
    origins: Mapping[str, str] = field(default_factory=dict)
    """Expanded pointer to the written pointer it came from (the nearest listed ancestor of a
    pointer decides; a pointer with none listed is the same in both)."""
    variants: Mapping[str, Variant] = field(default_factory=dict)
    """Expanded pointer of each variant to what it is a variant of."""
    findings: list[Finding] = field(default_factory=list)
    """What the expansion found wrong in expanded values (pointers into the expanded document)."""
    written_findings: list[Finding] = field(default_factory=list)
    """What it found wrong in the document as written (pointers into that document)."""

    def source_pointer(self, pointer: str) -> str:
        """The pointer, in the document as written, of the value at expanded ``pointer``."""
        if not self.origins:
            return pointer
        for ancestor in _ancestors(pointer):
            if ancestor in self.origins:
                return self.origins[ancestor] + pointer[len(ancestor) :]
        return pointer

    def variant(self, pointer: str) -> Variant | None:
        """The variant that the expanded ``pointer`` lies in, if any."""
        if not self.variants:
            return None
        return next((self.variants[a] for a in _ancestors(pointer) if a in self.variants), None)

    def written(self, finding: Finding) -> Finding:
        """``finding`` about the document as written: its pointer there, its variant named."""
        update: dict[str, object] = {"pointer": self.source_pointer(finding.pointer)}
        variant = self.variant(finding.pointer)
        if variant is not None and variant.label not in finding.message:
            update["message"] = f"{finding.message} (in {variant.label})"
        return finding.model_copy(update=update)

    def written_all(self, findings: list[Finding]) -> list[Finding]:
        """``findings`` about the document as written.

        A finding that every variant of a value shares, word for word, is
        reported once, naming none.
        """
        plain: list[Finding] = []
        for item in findings:
            mapped = item.model_copy(update={"pointer": self.source_pointer(item.pointer)})
            plain.append(mapped)
        counts = Counter(plain)
        shared: set[Finding] = set()
        for original, mapped in zip(findings, plain, strict=True):
            variant = self.variant(original.pointer)
            if variant is not None and counts[mapped] >= variant.siblings:
                shared.add(mapped)
        result: list[Finding] = []
        for original, mapped in zip(findings, plain, strict=True):
            result.append(mapped if mapped in shared else self.written(original))
        return result


class WrittenPositions(Mapping[str, Position]):
    """Positions of an expanded document's values: those of the values they came from."""

    def __init__(self, expanded: Expanded, positions: Mapping[str, Position]) -> None:
        self._expanded = expanded
        self._positions = positions

    def __getitem__(self, pointer: str) -> Position:
        return self._positions[self._expanded.source_pointer(pointer)]

    def __contains__(self, pointer: object) -> bool:
        return (
            isinstance(pointer, str) and self._expanded.source_pointer(pointer) in self._positions
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)
