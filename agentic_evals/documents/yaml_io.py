"""Strict parsing of JSON and YAML documents, with the position of every value.

JSON is parsed by :mod:`json` (:mod:`~agentic_evals.documents.json_io`); YAML
by a :class:`~agentic_evals.documents.yaml_loader.StrictLoader` that follows
YAML 1.2: only ``true``/``false`` are booleans (``yes``, ``no``, ``on`` stay
strings), dates stay strings, and tags beyond the JSON types are refused.
Both reject duplicate keys and non-finite numbers. Positions (RFC 6901
pointer to 1-based line and column) come from ``yaml.compose``
(:mod:`~agentic_evals.documents.yaml_walk`); JSON text is nearly YAML, so the
same walk locates JSON values, best effort, when a finding needs one.

Nothing here raises for bad input: every problem is a finding.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from agentic_evals import codes
from agentic_evals.documents.bounded import BoundError, read_regular
from agentic_evals.documents.json_io import ParsedDocument, ValueChecker, failed, parse_json
from agentic_evals.documents.positions import MAX_DEPTH, MAX_VALUES, Position, TooLarge
from agentic_evals.documents.yaml_walk import NodeBuilder
from agentic_evals.limits import MAX_DOCUMENT_BYTES

if TYPE_CHECKING:
    import yaml

Format = Literal["json", "yaml", "auto"]
SUFFIXES = (".json", ".yaml", ".yml")
"""The file name suffixes of the documents agentic-evals reads: JSON, then YAML."""


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
        data = read_regular(path, MAX_DOCUMENT_BYTES)
    except BoundError as exc:
        return failed(codes.FILE_UNREADABLE, f"cannot read the file: {exc.rule}", b"")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return failed(codes.FILE_UNREADABLE, f"cannot read the file: {reason}", b"")
    return parse_bytes(data, format_for(path))


def parse_bytes(data: bytes, fmt: Format = "auto") -> ParsedDocument:
    """Decode UTF-8 ``data`` and parse it as ``fmt``; ``auto`` tries JSON, then YAML."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        message = f"the file is not UTF-8 (invalid byte at offset {exc.start})"
        return failed(codes.FILE_UNREADABLE, message, data)
    if fmt == "json":
        result = parse_json(text)
    elif fmt == "yaml":
        result = parse_yaml(text)
    else:
        result = parse_json(text)
        if not result.parsed and not text.lstrip().startswith(("{", "[")):
            result = parse_yaml(text)
    return ParsedDocument(result.value, result.parsed, result.positions, result.findings, data)


def parse_yaml(text: str) -> ParsedDocument:
    """Parse one YAML document with :class:`StrictLoader`; duplicate keys are errors."""
    # PyYAML is imported by the documents that are YAML: a JSON fixture never pays for it.
    import yaml

    from agentic_evals.documents.yaml_loader import compose, yaml_reason

    try:
        node = compose(text)
    except yaml.YAMLError as exc:
        return failed(
            codes.SCHEMA_SYNTAX, f"invalid YAML: {yaml_reason(exc)}", b"", _mark(exc, text)
        )
    except RecursionError:
        return failed(codes.SCHEMA_SYNTAX, f"nesting deeper than {MAX_DEPTH} levels", b"")
    if node is None:
        return ParsedDocument(None, True, {"": (1, 1)})
    builder = NodeBuilder()
    try:
        value = builder.build(node, [], 0, frozenset())
    except TooLarge:
        message = f"the document expands to more than {MAX_VALUES} values (YAML aliases?)"
        return failed(codes.SCHEMA_VALUE, message, b"", (1, 1))
    for (pointer, key), position in builder.duplicates.items():
        builder.error(codes.SCHEMA_DUPLICATE, pointer, f"duplicate key {key!r}", position)
    checker = ValueChecker(builder.positions, {})
    value = checker.check(value, [], 0)
    findings = (*builder.findings, *checker.findings)
    return ParsedDocument(value, True, builder.positions, findings)


def _mark(exc: yaml.YAMLError, text: str) -> Position | None:
    import yaml
    import yaml.reader

    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        return (mark.line + 1, mark.column + 1) if mark else None
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        return (before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
    return None
