"""Readable wording for schema errors: what a schema accepts, what a value is.

A fixture author reads "expected a list of strings, got a string", not a
jsonschema traceback. The JSON types are judged as the strict models judge
them (``1.0`` is not an integer); the validator's type checker shares
:func:`is_integer` and :func:`is_number`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from jsonschema import ValidationError

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


def is_integer(_checker: object, instance: object) -> bool:
    """Type check for ``integer``: an int that is not a bool."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def is_number(_checker: object, instance: object) -> bool:
    """Type check for ``number``: an int or float (not a bool) that fits a float."""
    if isinstance(instance, bool) or not isinstance(instance, int | float):
        return False
    try:
        float(instance)  # an integer too large for a float is no number to the models
    except OverflowError:
        return False
    return True


def error_schema(error: ValidationError) -> Mapping[str, Any]:
    """Return the subschema ``error`` was raised by, or an empty one."""
    return error.schema if isinstance(error.schema, Mapping) else {}


def error_limit(error: ValidationError) -> Any:
    """Return the value of the keyword ``error`` broke (the enum, the bound, ...)."""
    return error.validator_value


def value_message(error: ValidationError, root: Mapping[str, Any]) -> str:
    """Word an error about a value that has the right type (enum, bounds, pattern, ...)."""
    keyword, limit, instance = error.validator, error_limit(error), error.instance
    if keyword == "const":
        return f"expected {show(limit)}, got {show(instance)}"
    if keyword == "enum":
        hint = did_you_mean(instance, limit)
        return f"expected {describe(error_schema(error), root)}, got {show(instance)}{hint}"
    if keyword in ("minLength", "minItems") and limit == 1:
        return "must not be empty"
    bounds = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "greater than",
        "exclusiveMaximum": "less than",
    }
    if keyword in bounds:
        return f"must be {bounds[keyword]} {limit}, got {show(instance)}"
    if keyword == "pattern":
        return f"{show(instance)} does not match the pattern {limit}"
    if keyword in ("minLength", "minItems"):
        return f"needs at least {limit} {'characters' if keyword == 'minLength' else 'items'}"
    return str(error.message)


def did_you_mean(value: object, choices: Iterable[object]) -> str:
    """Return ``"; did you mean 'x'?"`` for a string close to one of ``choices``, else ``""``."""
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [c for c in choices if isinstance(c, str)], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def show(value: object) -> str:
    """Show a value as JSON, cut to 60 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def deref(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """Follow a local ``#/$defs/...`` reference; any other schema is returned as is."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"))
        if isinstance(target, Mapping):
            return target
    return schema


def describe(schema: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """Describe what a schema accepts, e.g. ``a list of strings``."""
    schema = deref(schema, root)
    if "const" in schema:
        return show(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(show(value) for value in schema["enum"])
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
    schema = deref(schema, root)
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _PLURAL:
        return _PLURAL[kind]
    return "objects" if "properties" in schema else "values"


def describe_value(value: object) -> str:
    """Name the JSON type of a value, e.g. ``a boolean``."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer" if is_number(None, value) else "an integer too large for a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"
