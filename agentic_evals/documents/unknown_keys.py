"""The unknown-key check: keys that are not fields of the models.

The generated schema does not forbid extra keys, because real fixtures carry
them; this walk follows the pydantic models instead, reports every key they do
not know as AE-SCHEMA-UNKNOWN (a warning, or an error under ``--strict``) and
suggests a close known key.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from types import UnionType
from typing import Annotated, Union, get_args, get_origin

from jsonpointer import JsonPointer
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, Severity
from agentic_evals.documents.positions import Position, position_of


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
    severity: Severity = "error" if strict else "warning"
    found: list[Finding] = []
    for parts, key, known in _unknown_keys(document, model, []):
        pointer = str(JsonPointer.from_parts([*parts, key]).path)
        close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.7)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        line, column = position_of(pointer, positions) or (None, None)
        message = f"unknown key {key!r} in {model_phrase(parts)}{hint}"
        found.append(
            Finding(
                code=codes.SCHEMA_UNKNOWN,
                severity=severity,
                pointer=pointer,
                message=message,
                line=line,
                column=column,
            )
        )
    return found


def model_phrase(parts: list[str | int]) -> str:
    """Name the object at ``parts`` for a message ("the fixture", "/cases/0")."""
    return "the fixture" if not parts else str(JsonPointer.from_parts(parts).path)


def _unknown_keys(
    value: object, model: type[BaseModel], parts: list[str | int]
) -> Iterator[tuple[list[str | int], str, set[str]]]:
    if not isinstance(value, dict):
        return
    fields = _fields(model)
    for key, child in value.items():
        info = fields.get(key)
        if info is None:
            yield parts, key, set(fields)
            continue
        for sub, many in _nested_models(info.annotation):
            if many and isinstance(child, list):
                for index, item in enumerate(child):
                    yield from _unknown_keys(item, sub, [*parts, key, index])
            elif not many and isinstance(child, dict):
                yield from _unknown_keys(child, sub, [*parts, key])


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
