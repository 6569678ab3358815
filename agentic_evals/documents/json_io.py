"""Strict JSON parsing, and the checks every parsed value goes through.

JSON is parsed by :mod:`json`. Duplicate keys and non-finite numbers are
errors, as are strings that are not valid Unicode; :class:`ValueChecker`
applies the same checks to values parsed from YAML. A
:class:`ParsedDocument` is what either parser returns.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from agentic_evals import codes
from agentic_evals.documents.bounded import LongInteger, encodable, parse_int
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.positions import MAX_DEPTH, Position, pointer_to, position_of
from agentic_evals.documents.yaml_walk import LazyPositions
from agentic_evals.limits import MAX_INT_DIGITS


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed document, where its values are, and what was wrong with it."""

    value: object
    """The JSON value (``None`` also when nothing could be parsed; see ``parsed``)."""
    parsed: bool
    """``False`` when the text could not be read or parsed at all."""
    positions: Mapping[str, Position] = field(default_factory=dict)
    """RFC 6901 pointer to 1-based (line, column); mapping members point at their key."""
    findings: tuple[Finding, ...] = ()
    """Problems found while reading and parsing."""
    source: bytes = b""
    """The raw bytes read."""


def failed(
    code: str, message: str, source: bytes, position: Position | None = None
) -> ParsedDocument:
    """Return a document that could not be parsed at all, with one finding at the root."""
    line, column = position if position else (None, None)
    problem = finding(code, "", message, line=line, column=column)
    return ParsedDocument(None, False, {}, (problem,), source)


def parse_json(text: str) -> ParsedDocument:
    """Parse JSON text strictly: duplicate keys and non-finite numbers are errors."""
    try:
        raw = json.loads(text, object_pairs_hook=_KeyedObject.from_pairs, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        return failed(codes.SCHEMA_SYNTAX, f"invalid JSON: {exc.msg}", b"", (exc.lineno, exc.colno))
    except RecursionError:
        return failed(codes.SCHEMA_SYNTAX, f"nesting deeper than {MAX_DEPTH} levels", b"")
    positions = LazyPositions(text)
    checker = ValueChecker(positions, _LazyDuplicates(positions))
    value = checker.check(raw, [], 0)
    return ParsedDocument(value, True, positions, tuple(checker.findings))


class _LazyDuplicates(Mapping[tuple[str, str], Position]):
    """Where repeated keys are, located only when a repeated key is reported."""

    def __init__(self, positions: LazyPositions) -> None:
        self._positions = positions

    def __getitem__(self, key: tuple[str, str]) -> Position:
        return self._positions.duplicates[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._positions.duplicates)

    def __len__(self) -> int:
        return len(self._positions.duplicates)


class _KeyedObject(dict[str, object]):
    """A JSON object that remembers the keys it saw more than once."""

    repeated: list[str]

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, object]]) -> _KeyedObject:
        obj = cls()
        obj.repeated = []
        for key, value in pairs:
            if key in obj and key not in obj.repeated:
                obj.repeated.append(key)
            obj[key] = value
        return obj


class ValueChecker:
    """Check a parsed value for what JSON cannot hold and record duplicate keys."""

    def __init__(
        self, positions: Mapping[str, Position], duplicates: Mapping[tuple[str, str], Position]
    ) -> None:
        self.positions = positions
        self.duplicates = duplicates
        self.findings: list[Finding] = []

    def _error(self, code: str, pointer: str, message: str, at: Position | None = None) -> None:
        line, column = at or position_of(pointer, self.positions) or (None, None)
        self.findings.append(finding(code, pointer, message, line=line, column=column))

    def check(self, value: object, parts: list[str | int], depth: int) -> object:
        """Return ``value`` (found at ``parts``) as plain JSON, recording what is wrong."""
        if depth > MAX_DEPTH:
            self._error(codes.SCHEMA_VALUE, pointer_to(parts), f"nesting deeper than {MAX_DEPTH}")
            return None
        if isinstance(value, LongInteger):
            message = f"an integer longer than {MAX_INT_DIGITS} digits"
            self._error(codes.SCHEMA_VALUE, pointer_to(parts), message)
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self._error(codes.SCHEMA_VALUE, pointer_to(parts), f"{value} is not a finite number")
        elif isinstance(value, str) and not encodable(value):
            self._error(codes.SCHEMA_VALUE, pointer_to(parts), "the string is not valid Unicode")
        elif isinstance(value, list):
            return [self.check(item, [*parts, i], depth + 1) for i, item in enumerate(value)]
        elif isinstance(value, dict):
            return self._check_object(value, parts, depth)
        return value

    def _check_object(
        self, value: dict[str, object], parts: list[str | int], depth: int
    ) -> dict[str, object]:
        pointer = pointer_to(parts)
        for key in getattr(value, "repeated", ()):
            at = self.duplicates.get((pointer, key))
            self._error(codes.SCHEMA_DUPLICATE, pointer, f"duplicate key {key!r}", at)
        result: dict[str, object] = {}
        for key, item in value.items():
            if not encodable(key):
                self._error(codes.SCHEMA_VALUE, pointer, "a key is not valid Unicode")
            result[key] = self.check(item, [*parts, key], depth + 1)
        return result
