"""Findings located after the fact: line and column read back from the files they name.

Audits record a finding's file (relative to the folder they audit) and
pointer; outputs that show positions (SARIF, annotations) read the file back
here, once per file, and locate each pointer the same way a loader does
(:func:`~agentic_evals.documents.positions.locate`). A file that is gone or
no longer parses leaves its findings as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from agentic_evals.documents.findings import Finding
from agentic_evals.documents.json_io import ParsedDocument
from agentic_evals.documents.positions import Position, locate, position_of
from agentic_evals.documents.yaml_io import read_document


class FileLocator:
    """The parsed documents of files, each read once."""

    def __init__(self) -> None:
        self._read: dict[Path, ParsedDocument] = {}

    def parsed(self, path: Path) -> ParsedDocument:
        """``path`` parsed (JSON or YAML by extension); ``parsed`` is false when it cannot be."""
        if path not in self._read:
            self._read[path] = read_document(path)
        return self._read[path]

    def positions(self, path: Path) -> Mapping[str, Position]:
        """Pointer to (line, column) of every value of ``path``; empty when it does not parse."""
        return self.parsed(path).positions

    def position(self, path: Path, pointer: str) -> Position | None:
        """Where ``pointer`` (or its nearest located parent) is in ``path``."""
        return position_of(pointer, self.positions(path))


def under(base: Path | None, file: str | None) -> Path | None:
    """The path of ``file`` as a finding names it, relative to ``base`` (None: as given)."""
    if file is None:
        return None
    path = Path(file)
    return path if base is None or path.is_absolute() else base / path


def located(
    findings: Iterable[tuple[Finding, Path | None]], locator: FileLocator | None = None
) -> list[Finding]:
    """Each finding naming ``base / file`` (its pair's base), with line and column from the file.

    A finding without a file is kept as it is; one that has a line keeps it.
    """
    locator = locator or FileLocator()
    found = []
    for item, base in findings:
        path = under(base, item.file)
        if path is None:
            found.append(item)
        elif item.line is not None:
            found.append(item.model_copy(update={"file": str(path)}))
        else:
            found.append(locate(item, path, locator.positions(path)))
    return found


def member_pointer(document: object, key: str, field: str, value: str) -> str | None:
    """``/key/N`` of the first object of the list ``document[key]`` whose ``field`` is ``value``."""
    members = document.get(key) if isinstance(document, dict) else None
    for index, member in enumerate(members if isinstance(members, list) else []):
        if isinstance(member, dict) and member.get(field) == value:
            return f"/{key}/{index}"
    return None
