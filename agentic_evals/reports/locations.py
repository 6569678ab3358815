"""Where each case of a report sits in its fixture: 1-based lines, for annotations.

A report does not store positions; they are read back from the fixture file
it names, and only when that file still has the bytes the report was made
from (its sha256 is ``fixture_sha256``), so a line never points at the wrong
case. JSON fixtures pay for locating only here, when an annotation needs it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from agentic_evals.contract.positions import position_of
from agentic_evals.contract.yaml_io import format_for, parse_bytes


def case_lines(fixture: Path, fixture_sha256: str) -> dict[str, int]:
    """Case name to the line its case object starts at; empty when the file changed or is gone."""
    try:
        data = fixture.read_bytes()
    except OSError:
        return {}
    if hashlib.sha256(data).hexdigest() != fixture_sha256:
        return {}
    parsed = parse_bytes(data, format_for(fixture))
    document = parsed.value
    positions = parsed.positions
    if not parsed.parsed or not isinstance(document, dict) or not isinstance(positions, Mapping):
        return {}
    cases = document.get("cases")
    if not isinstance(cases, list):
        return {}
    found: dict[str, int] = {}
    for index, case in enumerate(cases):
        if isinstance(case, dict) and isinstance(case.get("name"), str):
            at = position_of(f"/cases/{index}", positions)
            if at is not None:
                found.setdefault(case["name"], at[0])
    return found


class PointerLocator:
    """Line and column of RFC 6901 pointers in documents, each file parsed once."""

    def __init__(self) -> None:
        self._parsed: dict[Path, tuple[object, Mapping[str, tuple[int, int]]] | None] = {}

    def _load(self, path: Path) -> tuple[object, Mapping[str, tuple[int, int]]] | None:
        if path not in self._parsed:
            try:
                parsed = parse_bytes(path.read_bytes(), format_for(path))
            except OSError:
                self._parsed[path] = None
            else:
                positions = parsed.positions
                ok = parsed.parsed and isinstance(positions, Mapping)
                self._parsed[path] = (parsed.value, positions) if ok else None
        return self._parsed[path]

    def position(self, path: Path, pointer: str) -> tuple[int, int] | None:
        """``(line, column)`` of ``pointer`` (or its nearest located parent) in ``path``."""
        loaded = self._load(path)
        return None if loaded is None else position_of(pointer, loaded[1])

    def document(self, path: Path) -> object:
        """The parsed document at ``path``, or None."""
        loaded = self._load(path)
        return None if loaded is None else loaded[0]
