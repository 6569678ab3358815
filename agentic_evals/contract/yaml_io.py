"""Strict parsing of JSON and YAML documents, with the position of every value.

JSON is parsed by :mod:`json`; YAML by a :class:`StrictLoader` that follows
YAML 1.2: only ``true``/``false`` are booleans (``yes``, ``no``, ``on`` stay
strings), dates stay strings, and tags beyond the JSON types are refused.
Both reject duplicate keys and non-finite numbers. Positions (RFC 6901
pointer to 1-based line and column) come from ``yaml.compose``; JSON text is
nearly YAML, so the same walk locates JSON values, best effort.

Nothing here raises for bad input: every problem is a finding.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from jsonpointer import JsonPointer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from agentic_evals import codes
from agentic_evals.contract.findings import Finding

Position = tuple[int, int]
Format = Literal["json", "yaml", "auto"]

MAX_DEPTH = 64
"""Deeper nesting is refused: no fixture needs it, and the validators recurse."""
MAX_VALUES = 200_000
"""Values after expanding YAML aliases; more is an alias bomb, not a fixture."""

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


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


class StrictLoader(yaml.SafeLoader):
    """A YAML 1.2 core-schema loader: JSON types only, dates stay strings."""

    yaml_implicit_resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}


# Implicit resolvers of the YAML 1.2 core schema; anything else is a string.
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"),
)
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+.0123456789"),
)


def format_for(path: Path) -> Format:
    """Choose the parser from the file extension."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    return "auto"


def read_document(path: Path) -> ParsedDocument:
    """Read and parse ``path`` (JSON or YAML by extension); never raises for bad input."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return _failed(codes.FILE_UNREADABLE, f"cannot read the file: {reason}", b"")
    return parse_bytes(data, format_for(path))


def parse_bytes(data: bytes, fmt: Format = "auto") -> ParsedDocument:
    """Decode UTF-8 ``data`` and parse it as ``fmt``; ``auto`` tries JSON, then YAML."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        message = f"the file is not UTF-8 (invalid byte at offset {exc.start})"
        return _failed(codes.FILE_UNREADABLE, message, data)
    if fmt == "json":
        result = parse_json(text)
    elif fmt == "yaml":
        result = parse_yaml(text)
    else:
        result = parse_json(text)
        if not result.parsed and not text.lstrip().startswith(("{", "[")):
            result = parse_yaml(text)
    return ParsedDocument(result.value, result.parsed, result.positions, result.findings, data)


def parse_json(text: str) -> ParsedDocument:
    """Parse JSON text strictly: duplicate keys and non-finite numbers are errors."""
    try:
        raw = json.loads(text, object_pairs_hook=_KeyedObject.from_pairs)
    except json.JSONDecodeError as exc:
        return _failed(
            codes.SCHEMA_SYNTAX, f"invalid JSON: {exc.msg}", b"", (exc.lineno, exc.colno)
        )
    except RecursionError:
        return _failed(codes.SCHEMA_SYNTAX, f"nesting deeper than {MAX_DEPTH} levels", b"")
    walk = _compose_positions(text)
    checker = _ValueChecker(walk.positions if walk else {}, walk.duplicates if walk else {})
    value = checker.check(raw, [], 0)
    return ParsedDocument(value, True, checker.positions, tuple(checker.findings))


def parse_yaml(text: str) -> ParsedDocument:
    """Parse one YAML document with :class:`StrictLoader`; duplicate keys are errors."""
    try:
        node = _compose(text)
    except yaml.YAMLError as exc:
        return _failed(
            codes.SCHEMA_SYNTAX, f"invalid YAML: {_yaml_reason(exc)}", b"", _mark(exc, text)
        )
    except RecursionError:
        return _failed(codes.SCHEMA_SYNTAX, f"nesting deeper than {MAX_DEPTH} levels", b"")
    if node is None:
        return ParsedDocument(None, True, {"": (1, 1)})
    builder = _NodeBuilder()
    try:
        value = builder.build(node, [], 0, frozenset())
    except _TooLarge:
        message = f"the document expands to more than {MAX_VALUES} values (YAML aliases?)"
        return _failed(codes.SCHEMA_VALUE, message, b"", (1, 1))
    for (pointer, key), position in builder.duplicates.items():
        builder.error(codes.SCHEMA_DUPLICATE, pointer, f"duplicate key {key!r}", position)
    checker = _ValueChecker(builder.positions, {})
    value = checker.check(value, [], 0)
    findings = (*builder.findings, *checker.findings)
    return ParsedDocument(value, True, builder.positions, findings)


def position_of(pointer: str, positions: Mapping[str, Position]) -> Position | None:
    """Return the position of ``pointer``, or of its nearest located ancestor."""
    while True:
        if pointer in positions:
            return positions[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


def _pointer(parts: list[str | int]) -> str:
    return str(JsonPointer.from_parts(parts).path)


def _failed(
    code: str, message: str, source: bytes, position: Position | None = None
) -> ParsedDocument:
    line, column = position if position else (None, None)
    finding = Finding(
        code=code, severity="error", pointer="", message=message, line=line, column=column
    )
    return ParsedDocument(None, False, {}, (finding,), source)


def _compose(text: str) -> Node | None:
    loader = StrictLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _yaml_reason(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        return " ".join(part for part in (exc.context, exc.problem) if part) or str(exc)
    if isinstance(exc, yaml.reader.ReaderError):
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return f"unacceptable character U+{code:04X}"
    return str(exc)


def _mark(exc: yaml.YAMLError, text: str) -> Position | None:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        return (mark.line + 1, mark.column + 1) if mark else None
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        return (before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
    return None


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


class _TooLarge(Exception):
    """Raised inside the node walk when aliases expand past ``MAX_VALUES``."""


class _NodeBuilder:
    """Build a JSON value from a YAML node graph, recording positions and problems."""

    def __init__(self) -> None:
        self.positions: dict[str, Position] = {}
        self.duplicates: dict[tuple[str, str], Position] = {}
        self.findings: list[Finding] = []
        self._visits = 0
        self._scalars = StrictLoader("")

    def error(self, code: str, pointer: str, message: str, position: Position | None) -> None:
        line, column = position if position else (None, None)
        self.findings.append(
            Finding(
                code=code,
                severity="error",
                pointer=pointer,
                message=message,
                line=line,
                column=column,
            )
        )

    def build(
        self, node: Node, parts: list[str | int], depth: int, ancestors: frozenset[int]
    ) -> object:
        self._visits += 1
        if self._visits > MAX_VALUES:
            raise _TooLarge
        pointer = _pointer(parts)
        here = (node.start_mark.line + 1, node.start_mark.column + 1)
        self.positions.setdefault(pointer, here)
        if id(node) in ancestors:
            self.error(codes.SCHEMA_SYNTAX, pointer, "recursive YAML alias", here)
            return None
        if depth > MAX_DEPTH:
            self.error(codes.SCHEMA_VALUE, pointer, f"nesting deeper than {MAX_DEPTH}", here)
            return None
        inner = ancestors | {id(node)}
        if isinstance(node, ScalarNode):
            return self._scalar(node, pointer, here)
        if isinstance(node, SequenceNode) and node.tag == _SEQ:
            return [
                self.build(child, [*parts, index], depth + 1, inner)
                for index, child in enumerate(node.value)
            ]
        if isinstance(node, MappingNode) and node.tag == _MAP:
            return self._mapping(node, parts, depth, inner)
        self.error(codes.SCHEMA_SYNTAX, pointer, f"unsupported YAML tag {node.tag!r}", here)
        return None

    def _mapping(
        self, node: MappingNode, parts: list[str | int], depth: int, inner: frozenset[int]
    ) -> dict[str, object]:
        pointer = _pointer(parts)
        result: dict[str, object] = {}
        for key_node, value_node in node.value:
            key_at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if not isinstance(key_node, ScalarNode) or key_node.tag != _STR:
                # A key that is not a string cannot be a JSON member name.
                self.error(codes.SCHEMA_TYPE, pointer, "mapping keys must be strings", key_at)
                continue
            key = str(key_node.value)
            child = [*parts, key]
            if key in result:
                self.duplicates.setdefault((pointer, key), key_at)
            self.positions[_pointer(child)] = key_at
            result[key] = self.build(value_node, child, depth + 1, inner)
        return result

    def _scalar(self, node: ScalarNode, pointer: str, here: Position) -> object:
        try:
            return self._scalars.construct_object(node)
        except (yaml.YAMLError, ValueError) as exc:
            reason = _yaml_reason(exc) if isinstance(exc, yaml.YAMLError) else str(exc)
            self.error(codes.SCHEMA_SYNTAX, pointer, f"invalid YAML scalar: {reason}", here)
            return None


def _construct_int(loader: yaml.SafeLoader, node: ScalarNode) -> int:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    for prefix, base in (("0o", 8), ("0x", 16), ("0b", 2)):
        if digits.startswith(prefix):
            return sign * int(digits[2:], base)
    return sign * int(digits, 10)


def _construct_float(loader: yaml.SafeLoader, node: ScalarNode) -> float:
    text = str(loader.construct_scalar(node)).replace("_", "").lower()
    if text.lstrip("+-") in (".inf", ".nan"):
        return float(text.replace(".", ""))
    return float(text)


StrictLoader.yaml_constructors = {
    tag: constructor
    for tag, constructor in yaml.SafeLoader.yaml_constructors.items()
    if tag in ("tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", _STR, None)
}
StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)


class _ValueChecker:
    """Check a parsed value for what JSON cannot hold and record duplicate keys."""

    def __init__(
        self, positions: Mapping[str, Position], duplicates: Mapping[tuple[str, str], Position]
    ) -> None:
        self.positions = dict(positions)
        self.duplicates = duplicates
        self.findings: list[Finding] = []

    def _error(self, code: str, pointer: str, message: str, at: Position | None = None) -> None:
        line, column = at or position_of(pointer, self.positions) or (None, None)
        self.findings.append(
            Finding(
                code=code,
                severity="error",
                pointer=pointer,
                message=message,
                line=line,
                column=column,
            )
        )

    def check(self, value: object, parts: list[str | int], depth: int) -> object:
        if depth > MAX_DEPTH:
            self._error(codes.SCHEMA_VALUE, _pointer(parts), f"nesting deeper than {MAX_DEPTH}")
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self._error(codes.SCHEMA_VALUE, _pointer(parts), f"{value} is not a finite number")
        elif isinstance(value, str) and not _encodable(value):
            self._error(codes.SCHEMA_VALUE, _pointer(parts), "the string is not valid Unicode")
        elif isinstance(value, list):
            return [self.check(item, [*parts, i], depth + 1) for i, item in enumerate(value)]
        elif isinstance(value, dict):
            return self._check_object(value, parts, depth)
        return value

    def _check_object(
        self, value: dict[str, object], parts: list[str | int], depth: int
    ) -> dict[str, object]:
        pointer = _pointer(parts)
        for key in getattr(value, "repeated", ()):
            at = self.duplicates.get((pointer, key))
            self._error(codes.SCHEMA_DUPLICATE, pointer, f"duplicate key {key!r}", at)
        result: dict[str, object] = {}
        for key, item in value.items():
            if not _encodable(key):
                self._error(codes.SCHEMA_VALUE, pointer, "a key is not valid Unicode")
            result[key] = self.check(item, [*parts, key], depth + 1)
        return result


def _encodable(text: str) -> bool:
    # Lone surrogates (from "\ud800" escapes) cannot be written back as UTF-8.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _compose_positions(text: str) -> _NodeBuilder | None:
    """Locate the values of JSON text by composing it as YAML; ``None`` when it will not."""
    try:
        node = _compose(text)
        if node is None:
            return None
        builder = _NodeBuilder()
        builder.build(node, [], 0, frozenset())
    except (yaml.YAMLError, RecursionError, _TooLarge):
        return None
    return builder
