"""JSON Schema validation of a parsed document, and the unknown-key check.

Every schema error becomes a :class:`Finding` with an RFC 6901 pointer, a
stable code and a message a fixture author can act on ("expected a list of
strings, got a string"). The validator is Draft 2020-12 with two changes that
keep it in step with the strict pydantic models: ``1.0`` is not an integer,
and ``$`` in a pattern means the end of the string (as in the models' regex
engine), not "before a final newline".
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from types import UnionType
from typing import Annotated, Any, NamedTuple, Union, cast, get_args, get_origin

from jsonpointer import JsonPointer
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from agentic_evals import codes
from agentic_evals.contract.findings import Finding, Severity
from agentic_evals.contract.yaml_io import Position, position_of

_ARTICLE = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "an object",
    "array": "a list",
    "null": "null",
}
_PLURAL = {
    "string": "strings",
    "integer": "integers",
    "number": "numbers",
    "boolean": "booleans",
    "object": "objects",
    "array": "lists",
}
_VALUE_KEYWORDS = frozenset(
    {"const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {"minLength", "maxLength", "minItems", "maxItems", "pattern", "uniqueItems"}
)


class _Raw(NamedTuple):
    code: str
    parts: list[str | int]
    message: str


def _is_integer(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(_checker: object, instance: object) -> bool:
    if isinstance(instance, bool) or not isinstance(instance, int | float):
        return False
    try:
        float(instance)  # an integer too large for a float is no number to the models
    except OverflowError:
        return False
    return True


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
        {"integer": _is_integer, "number": _is_number}
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
    for error in validator.iter_errors(cast(Any, document)):
        raws.extend(_translate(error, root))
    findings: dict[tuple[str, str, str], Finding] = {}
    for raw in raws:
        pointer = str(JsonPointer.from_parts(raw.parts).path)
        line, column = position_of(pointer, positions) or (None, None)
        finding = Finding(
            code=raw.code,
            severity="error",
            pointer=pointer,
            message=raw.message,
            line=line,
            column=column,
        )
        findings.setdefault((raw.code, pointer, raw.message), finding)
    return sorted(findings.values(), key=_document_order)


def _document_order(finding: Finding) -> tuple[int, int, str]:
    return (finding.line or 0, finding.column or 0, finding.pointer)


def _schema(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _limit(error: ValidationError) -> Any:
    return error.validator_value


def _translate(error: ValidationError, root: Mapping[str, Any]) -> list[_Raw]:
    keyword = error.validator
    parts: list[str | int] = list(error.absolute_path)
    instance = error.instance
    if keyword in ("anyOf", "oneOf"):
        return _translate_union(error, root)
    schema_path = list(error.absolute_schema_path)
    if len(schema_path) >= 2 and schema_path[-2] == "propertyNames":
        # The instance is a key; point at the member it names.
        hint = _hint(instance, _schema(error).get("enum", ()))
        message = (
            f"key {instance!r} is not allowed: expected {describe(_schema(error), root)}{hint}"
        )
        return [_Raw(codes.SCHEMA_VALUE, [*parts, str(instance)], message)]
    if keyword == "required":
        present = instance if isinstance(instance, dict) else {}
        missing = [key for key in _limit(error) if key not in present]
        return [_Raw(codes.SCHEMA_REQUIRED, parts, f"missing required key {k!r}") for k in missing]
    if parts == ["version"]:
        return [_Raw(codes.SCHEMA_VERSION, parts, f"version must be 2, got {_show(instance)}")]
    if keyword == "type":
        message = f"expected {describe(_schema(error), root)}, got {describe_value(instance)}"
        return [_Raw(codes.SCHEMA_TYPE, parts, message)]
    if keyword == "additionalProperties":
        return [_Raw(codes.SCHEMA_UNKNOWN, parts, error.message)]
    if keyword in _VALUE_KEYWORDS:
        return [_Raw(codes.SCHEMA_VALUE, parts, _value_message(error, root))]
    return [_Raw(codes.SCHEMA_VALUE, parts, error.message)]


def _translate_union(error: ValidationError, root: Mapping[str, Any]) -> list[_Raw]:
    """Explain a failed ``anyOf``: by the branch whose type fits, or as a type error."""
    branches: list[Mapping[str, Any]] = list(_limit(error))
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        index = sub.relative_schema_path[0]
        if isinstance(index, int):
            by_branch.setdefault(index, []).append(sub)
    fitting = [i for i, branch in enumerate(branches) if _type_fits(branch, error.instance, root)]
    parts: list[str | int] = list(error.absolute_path)
    if not fitting:
        if parts == ["version"]:
            return [_Raw(codes.SCHEMA_VERSION, parts, "version must be 2")]
        message = f"expected {describe(_schema(error), root)}, got {describe_value(error.instance)}"
        return [_Raw(codes.SCHEMA_TYPE, parts, message)]
    best = min(fitting, key=lambda i: len(by_branch.get(i, [])))
    subs = by_branch.get(best, [])
    if not subs:
        return [_Raw(codes.SCHEMA_VALUE, parts, error.message)]
    return [raw for sub in subs for raw in _translate(sub, root)]


def _value_message(error: ValidationError, root: Mapping[str, Any]) -> str:
    keyword, limit, instance = error.validator, _limit(error), error.instance
    if keyword == "const":
        return f"expected {_show(limit)}, got {_show(instance)}"
    if keyword == "enum":
        hint = _hint(instance, limit)
        return f"expected {describe(_schema(error), root)}, got {_show(instance)}{hint}"
    if keyword in ("minLength", "minItems") and limit == 1:
        return "must not be empty"
    bounds = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "greater than",
        "exclusiveMaximum": "less than",
    }
    if keyword in bounds:
        return f"must be {bounds[keyword]} {limit}, got {_show(instance)}"
    if keyword == "pattern":
        return f"{_show(instance)} does not match the pattern {limit}"
    if keyword in ("minLength", "minItems"):
        return f"needs at least {limit} {'characters' if keyword == 'minLength' else 'items'}"
    return str(error.message)


def _hint(value: object, choices: Iterable[object]) -> str:
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [c for c in choices if isinstance(c, str)], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _show(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _deref(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"))
        if isinstance(target, Mapping):
            return target
    return schema


def _type_fits(branch: Mapping[str, Any], instance: object, root: Mapping[str, Any]) -> bool:
    branch = _deref(branch, root)
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
        "integer": lambda v: _is_integer(None, v),
        "number": lambda v: _is_number(None, v),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    check = checks.get(name)
    return bool(check(instance)) if check else False


def describe(schema: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """Describe what a schema accepts, e.g. ``a list of strings``."""
    schema = _deref(schema, root)
    if "const" in schema:
        return _show(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(_show(value) for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(dict.fromkeys(describe(sub, root) for sub in schema[key]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(_ARTICLE.get(k, str(k)) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"a list of {_plural(schema['items'], root)}"
    if isinstance(kind, str):
        return _ARTICLE.get(kind, kind)
    return "any JSON value"


def _plural(schema: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    schema = _deref(schema, root)
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _PLURAL:
        return _PLURAL[kind]
    return "objects" if "properties" in schema else "values"


def describe_value(value: object) -> str:
    """Name the JSON type of a value, e.g. ``a boolean``."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer" if _is_number(None, value) else "an integer too large for a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


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
