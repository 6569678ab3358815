"""JSON Schema validation of a parsed document: every error becomes a finding.

Every schema error becomes a :class:`Finding` with an RFC 6901 pointer, a
stable code and a message a fixture author can act on ("expected a list of
strings, got a string"; the wording is in
:mod:`~agentic_evals.documents.messages`). The validator is Draft 2020-12 with
two changes that keep it in step with the strict pydantic models: ``1.0`` is
not an integer, and ``$`` in a pattern means the end of the string (as in the
models' regex engine), not "before a final newline".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple, cast

from jsonpointer import JsonPointer
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, PerCodeCap, finding
from agentic_evals.documents.messages import (
    deref,
    describe,
    describe_value,
    did_you_mean,
    error_limit,
    error_schema,
    is_integer,
    is_number,
    show,
    value_message,
)
from agentic_evals.documents.positions import Position, position_of
from agentic_evals.documents.unknown_keys import unknown_key

_VALUE_KEYWORDS = frozenset(
    {"const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {"minLength", "maxLength", "minItems", "maxItems", "pattern", "uniqueItems"}
)


class _Raw(NamedTuple):
    code: str
    parts: list[str | int]
    message: str


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    # A final unescaped "$" anchors at the very end, as in the models' regex engine.
    body = pattern[:-1]
    if pattern.endswith("$") and (len(body) - len(body.rstrip("\\"))) % 2 == 0:
        pattern = body + r"\Z"
    return re.compile(pattern)


def _pattern(
    validator: Validator, pattern: str, instance: object, _schema: object
) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not _compiled(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_StrictValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": is_integer, "number": is_number}
    ),
)


def make_validator(schema: Mapping[str, Any]) -> Validator:
    """Return a Draft 2020-12 validator for ``schema`` that agrees with the strict models."""
    return cast(Validator, _StrictValidator(schema))


def schema_findings(
    validator: Validator, document: object, positions: Mapping[str, Position]
) -> list[Finding]:
    """Validate ``document`` and return every error as a finding, in document order."""
    root: Mapping[str, Any] = validator.schema  # type: ignore[assignment]
    raws: list[_Raw] = []
    cap = PerCodeCap()
    for error in validator.iter_errors(cast(Any, document)):
        raws.extend(raw for raw in _translate(error, root) if cap.admit(raw.code))
    findings: dict[tuple[str, str, str], Finding] = {}
    for raw in raws:
        pointer = str(JsonPointer.from_parts(raw.parts).path)
        line, column = position_of(pointer, positions) or (None, None)
        found = finding(raw.code, pointer, raw.message, line=line, column=column)
        findings.setdefault((raw.code, pointer, raw.message), found)
    return sorted(findings.values(), key=_document_order) + cap.summaries()


def _document_order(finding: Finding) -> tuple[int, int, str]:
    return (finding.line or 0, finding.column or 0, finding.pointer)


def _translate(error: ValidationError, root: Mapping[str, Any]) -> list[_Raw]:
    keyword = error.validator
    parts: list[str | int] = list(error.absolute_path)
    instance = error.instance
    if keyword in ("anyOf", "oneOf"):
        return _translate_union(error, root)
    schema_path = list(error.absolute_schema_path)
    if len(schema_path) >= 2 and schema_path[-2] == "propertyNames":
        # The instance is a key; point at the member it names.
        hint = did_you_mean(instance, error_schema(error).get("enum", ()))
        message = (
            f"key {instance!r} is not allowed: expected {describe(error_schema(error), root)}{hint}"
        )
        return [_Raw(codes.SCHEMA_VALUE, [*parts, str(instance)], message)]
    if keyword == "required":
        present = instance if isinstance(instance, dict) else {}
        missing = [key for key in error_limit(error) if key not in present]
        return [_Raw(codes.SCHEMA_REQUIRED, parts, f"missing required key {k!r}") for k in missing]
    version = _version(parts, root)
    if version is not None:
        message = f"version must be {version}, got {show(instance)}"
        return [_Raw(codes.SCHEMA_VERSION, parts, message)]
    if keyword == "type":
        message = f"expected {describe(error_schema(error), root)}, got {describe_value(instance)}"
        return [_Raw(codes.SCHEMA_TYPE, parts, message)]
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = error_schema(error).get("properties", {})
        return [
            _Raw(codes.SCHEMA_UNKNOWN, [*parts, key], _unknown(parts, key, known))
            for key in instance
            if key not in known
        ]
    if keyword in _VALUE_KEYWORDS:
        return [_Raw(codes.SCHEMA_VALUE, parts, value_message(error, root))]
    return [_Raw(codes.SCHEMA_VALUE, parts, error.message)]


def _unknown(parts: list[str | int], key: str, known: Iterable[str]) -> str:
    return unknown_key(parts, key, known, {}).message


def _version(parts: list[str | int], root: Mapping[str, Any]) -> str | None:
    """The format version a document must declare, when ``parts`` is its ``version``."""
    if parts != ["version"]:
        return None
    const = deref(root.get("properties", {}).get("version", {}), root).get("const")
    return None if const is None else show(const)


def _translate_union(error: ValidationError, root: Mapping[str, Any]) -> list[_Raw]:
    """Explain a failed ``anyOf``: by the branch whose type fits, or as a type error."""
    branches: list[Mapping[str, Any]] = list(error_limit(error))
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        index = sub.relative_schema_path[0]
        if isinstance(index, int):
            by_branch.setdefault(index, []).append(sub)
    fitting = [i for i, branch in enumerate(branches) if _type_fits(branch, error.instance, root)]
    parts: list[str | int] = list(error.absolute_path)
    if not fitting:
        version = _version(parts, root)
        if version is not None:
            return [_Raw(codes.SCHEMA_VERSION, parts, f"version must be {version}")]
        message = (
            f"expected {describe(error_schema(error), root)}, got {describe_value(error.instance)}"
        )
        return [_Raw(codes.SCHEMA_TYPE, parts, message)]
    best = min(fitting, key=lambda i: len(by_branch.get(i, [])))
    subs = by_branch.get(best, [])
    if not subs:
        return [_Raw(codes.SCHEMA_VALUE, parts, error.message)]
    return [raw for sub in subs for raw in _translate(sub, root)]


def _type_fits(branch: Mapping[str, Any], instance: object, root: Mapping[str, Any]) -> bool:
    branch = deref(branch, root)
    for key in ("anyOf", "oneOf"):
        if key in branch:
            return any(_type_fits(sub, instance, root) for sub in branch[key])
    kind = branch.get("type")
    if kind is None:
        return True
    kinds = kind if isinstance(kind, list) else [kind]
    return any(_is_type(name, instance) for name in kinds)


def _is_type(name: str, instance: object) -> bool:
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: is_integer(None, v),
        "number": lambda v: is_number(None, v),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    check = checks.get(name)
    return bool(check(instance)) if check else False
