"""The unknown-key check: keys that are not fields of the models.

The schema of an open document (a fixture, a registry) does not forbid extra
keys, because real documents carry them; this walk follows the pydantic
models instead, reports every key they do not know as AE-SCHEMA-UNKNOWN (a
warning, or an error under ``--strict``) and suggests a close known key. A
model whose ``unknown_keys_fatal`` is true (a case's ``expected``: a misspelled
oracle would silently check nothing) makes its unknown keys, and those of the
models inside it (an artifact check), errors always. A
closed document's schema rejects them itself, in the same words
(:func:`unknown_key`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from types import UnionType
from typing import Annotated, Union, get_args, get_origin

from jsonpointer import JsonPointer
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, Severity, finding
from agentic_evals.documents.positions import Position, position_of
from agentic_evals.documents.schema_gen import SCHEMA_KEY


def unknown_key_findings(
    document: object,
    model: type[BaseModel],
    positions: Mapping[str, Position],
    *,
    strict: bool = False,
) -> list[Finding]:
    """Report keys that are not fields of ``model`` (recursively) as AE-SCHEMA-UNKNOWN.

    They are warnings, because real fixtures carry extra keys; ``strict``
    makes them errors. A close known key is suggested.
    """
    found: list[Finding] = []
    for parts, key, known, fatal in _unknown_keys(document, model, []):
        if not parts and key == SCHEMA_KEY:
            continue  # the document's schema, for editors: every document takes it
        severity: Severity = "error" if strict or fatal else "warning"
        found.append(unknown_key(parts, key, known, positions, severity))
    return found


def unknown_key(
    parts: list[str | int],
    key: str,
    known: Iterable[str],
    positions: Mapping[str, Position],
    severity: Severity = "error",
) -> Finding:
    """The finding for ``key``, unknown in the object at ``parts``; suggests a close known key."""
    pointer = str(JsonPointer.from_parts([*parts, key]).path)
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.7)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    where = "the document" if not parts else str(JsonPointer.from_parts(parts).path)
    line, column = position_of(pointer, positions) or (None, None)
    message = f"unknown key {key!r} in {where}{hint}"
    return finding(codes.SCHEMA_UNKNOWN, pointer, message, severity, line=line, column=column)


def _unknown_keys(
    value: object, model: type[BaseModel], parts: list[str | int], inherited: bool = False
) -> Iterator[tuple[list[str | int], str, set[str], bool]]:
    if not isinstance(value, dict):
        return
    fields = _fields(model)
    fatal = inherited or bool(getattr(model, "unknown_keys_fatal", False))
    for key, child in value.items():
        info = fields.get(key)
        if info is None:
            yield parts, key, set(fields), fatal
            continue
        for sub, many in _nested_models(info.annotation):
            if many and isinstance(child, list):
                for index, item in enumerate(child):
                    yield from _unknown_keys(item, sub, [*parts, key, index], fatal)
            elif not many and isinstance(child, dict):
                yield from _unknown_keys(child, sub, [*parts, key], fatal)


def _fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    fields: dict[str, FieldInfo] = {}
    for name, info in model.model_fields.items():
        fields[info.alias or name] = info
    return fields


def _nested_models(annotation: object) -> list[tuple[type[BaseModel], bool]]:
    """The models a field holds: ``(Model, False)`` for one, ``(Model, True)`` for a list."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _nested_models(get_args(annotation)[0])
    if origin is Union or origin is UnionType:
        return [found for arg in get_args(annotation) for found in _nested_models(arg)]
    if origin is list:
        args = get_args(annotation)
        inner = _nested_models(args[0]) if args else []
        return [(model, True) for model, many in inner if not many]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [(annotation, False)]
    return []
