"""JSON values inside artifacts: pointer resolution and equality.

Equality follows the JSON data model, not Python's: a boolean is never equal
to a number (Python has ``True == 1``), while integers and floats are all
JSON numbers, so ``1`` equals ``1.0``. Arrays compare element-wise in order
and objects compare key-wise, recursively under the same rule.
"""

from __future__ import annotations

import json
from typing import Any

from jsonpointer import EndOfList, JsonPointer, JsonPointerException

from agentic_evals.oracles.base import shorten


class PointerError(Exception):
    """A pointer is malformed or does not resolve in the document."""


def resolve(document: Any, pointer: str) -> Any:
    """Return the value at RFC 6901 ``pointer`` in ``document`` (``""`` is the whole).

    Raises:
        PointerError: The pointer is malformed or names nothing (including
            ``-``, which points past the end of an array).
    """
    try:
        value = JsonPointer(pointer).resolve(document)
    except JsonPointerException as error:
        raise PointerError(str(error)) from error
    except (TypeError, KeyError, IndexError) as error:
        raise PointerError(f"{pointer!r} does not resolve: {error}") from error
    if isinstance(value, EndOfList):
        raise PointerError(f"{pointer!r} points past the end of an array")
    return value


def json_equal(left: Any, right: Any) -> bool:
    """Return whether two parsed JSON values are equal as JSON (see module docstring)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return type(left) is type(right) and bool(left == right)


def render(value: Any, limit: int = 200) -> str:
    """Return ``value`` as compact JSON, shortened for a problem message."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return shorten(text, limit)
