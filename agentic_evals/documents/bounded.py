"""The one bounded way every document is read from disk and every JSON text is parsed.

:func:`read_regular` reads regular files only (a FIFO, a device, a socket or
a directory is refused without being read: a FIFO would block, ``/dev/zero``
never ends) and at most a given number of bytes. :func:`loads_json` parses
JSON text with the bounds of ``agentic_evals.limits``: nesting depth, integer
digits, and no lone surrogate in a string or key. Every refusal is a
:class:`BoundError` naming the file, the RFC 6901 pointer and the rule broken.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from agentic_evals.limits import MAX_DEPTH, MAX_INT_DIGITS

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class BoundError(ValueError):
    """A document that is refused before or while it is parsed (invalid input, exit 2)."""

    def __init__(self, where: str, pointer: str, rule: str) -> None:
        self.where = where
        self.pointer = pointer
        self.rule = rule
        # The whole document (pointer ""): no pointer is named.
        super().__init__(f"{where}: {pointer}: {rule}" if pointer else f"{where}: {rule}")


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` is when it is no regular file (``None`` for a regular file)."""
    return next(
        (name for test, name in _KINDS if test(mode)),
        None if stat.S_ISREG(mode) else "not a regular file",
    )


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    The file is opened without blocking (a FIFO opens at once) and checked on
    the open descriptor, so that what is read is what was checked.

    Raises:
        BoundError: ``path`` is not a regular file or holds more than ``limit`` bytes.
        OSError: it cannot be opened or read.
    """
    fd = os.open(path, _OPEN_FLAGS)
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise BoundError(str(path), "", f"it is {kind}, not a regular file")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise BoundError(str(path), "", f"the file is larger than {limit} bytes")
    return b"".join(chunks)


class LongInteger(str):
    """An integer literal longer than ``MAX_INT_DIGITS`` digits, kept as its text."""

    __slots__ = ()


def parse_int(text: str) -> int | LongInteger:
    """``json``'s integer hook: a literal over the digit bound is marked, not converted."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return LongInteger(text)
    return int(text)


def loads_json(text: str, where: str, max_depth: int = MAX_DEPTH) -> object:
    """Parse JSON ``text`` (read from ``where``) within the bounds.

    Raises:
        BoundError: the text is not JSON, nests deeper than ``max_depth``, holds
            an integer over ``MAX_INT_DIGITS`` digits or a lone surrogate.
    """
    try:
        value = json.loads(text, parse_int=parse_int, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        rule = f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise BoundError(where, "", rule) from None
    except ValueError as error:
        raise BoundError(where, "", f"not JSON: {error}") from None
    except RecursionError:
        raise BoundError(where, "", f"nesting deeper than {max_depth} levels") from None
    problem = first_problem(value, max_depth)
    if problem is not None:
        raise BoundError(where, *problem)
    return value


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a finite number")


def _token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def first_problem(value: object, max_depth: int = MAX_DEPTH) -> tuple[str, str] | None:
    """The pointer and rule of the first value out of bounds in a parsed value, if any.

    Walked without recursion, so that a deep value cannot exhaust the stack.
    """
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, pointer, depth = stack.pop()
        if depth > max_depth:
            return pointer, f"nesting deeper than {max_depth} levels"
        if isinstance(item, LongInteger):
            return pointer, f"an integer longer than {MAX_INT_DIGITS} digits"
        if isinstance(item, str):
            if not encodable(item):
                return pointer, "the string holds a lone surrogate (not valid Unicode)"
        elif isinstance(item, dict):
            for key in item:
                if not encodable(key):
                    return pointer, "a key holds a lone surrogate (not valid Unicode)"
            stack.extend(
                (v, f"{pointer}/{_token(k)}", depth + 1) for k, v in reversed(item.items())
            )
        elif isinstance(item, list):
            stack.extend(
                (v, f"{pointer}/{i}", depth + 1) for i, v in reversed(list(enumerate(item)))
            )
    return None


def encodable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
