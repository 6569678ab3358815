r"""Reading strace's record of ``execve``/``execveat`` calls (``strace -f -o FILE``).

A line is ``PID execve("path", ["arg0", ...], 0x... /* N vars */) = 0``, or for
``execveat`` ``PID execveat(AT_FDCWD, "path", [...], 0x..., 0) = 0``. When two
processes exec at once a call is split into ``... <unfinished ...>`` and
``PID <... execve resumed>) = 0``. Strings are C-quoted (``\"``, ``\n``,
octal escapes for every byte outside printable ASCII) and end with ``...``
when longer than ``-s``; an array ends with ``...`` when it has more elements.
Anything else (signals, exits, strace's own notes) is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from agentic_evals.runner.trace_types import Exec

_UNFINISHED = " <unfinished ...>"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"(\.\.\.)?', re.S)
_ESCAPE = re.compile(r"\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)", re.S)
_RESULT = re.compile(r"\)\s+=\s+(-?\d+|\?)\s*(.*)\Z", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "a": "\a", "b": "\b"}


def strace_calls(lines: Iterable[str], names: str) -> Iterator[tuple[int, str, str]]:
    """Yield ``(pid, call, text)`` for every call of ``names`` (a regex alternation) in ``lines``.

    ``text`` is what follows the opening parenthesis, in order of completion:
    a call split by another process's (``<unfinished ...>``, then ``<... call
    resumed>``) is joined first; a resumption without its beginning is skipped.
    """
    pattern = re.compile(rf"(\d+) +(?:({names})\(|<\.\.\. ({names}) resumed>)(.*)\Z", re.S)
    pending: dict[int, tuple[str, str]] = {}
    for line in lines:
        match = pattern.match(line.rstrip("\n"))
        if match is None:
            continue
        pid, rest = int(match[1]), match[4]
        if match[2] is not None:
            if rest.endswith(_UNFINISHED):
                pending[pid] = (match[2], rest[: -len(_UNFINISHED)])
                continue
            yield pid, match[2], rest
        else:
            begun = pending.pop(pid, None)
            if begun is not None:
                yield pid, begun[0], begun[1] + rest


def parse_strace(lines: Iterable[str]) -> Iterator[Exec]:
    """Yield every exec call recorded in ``lines``, in order of completion."""
    for pid, name, text in strace_calls(lines, "execve|execveat"):
        found = _call(pid, name, text)
        if found is not None:
            yield found


def exec_call(pid: int, name: str, text: str) -> Exec | None:
    """Decode one ``execve``/``execveat`` call (its text after the opening parenthesis)."""
    return _call(pid, name, text)


def _call(pid: int, name: str, text: str) -> Exec | None:
    """Decode the arguments and result of one call; None when unreadable."""
    pos = 0
    if name == "execveat":
        comma = text.find(", ")  # the directory fd is never quoted
        if comma < 0:
            return None
        pos = comma + 2
    path, pos = _string_at(text, pos)
    if not text.startswith(", ", pos):
        return None
    argv, pos = _array_at(text, pos + 2)
    result = _RESULT.search(text, pos)
    if result is None:
        return None
    error = None if result[1] == "0" else (result[2] or result[1])
    return Exec(pid=pid, path=path, argv=argv, error=error)


def _string_at(text: str, pos: int) -> tuple[str, int]:
    """Decode the string at ``pos``; an address or NULL decodes as ``""``."""
    match = _STRING.match(text, pos)
    if match is None:
        end = text.find(",", pos)
        return "", len(text) if end < 0 else end
    return _unquote(match[1]), match.end()


def _array_at(text: str, pos: int) -> tuple[tuple[str, ...], int]:
    if not text.startswith("[", pos):
        end = text.find(",", pos)  # NULL or an unreadable address
        return (), len(text) if end < 0 else end
    items: list[str] = []
    pos += 1
    while pos < len(text) and text[pos] != "]":
        if text.startswith("...", pos):
            pos += 3
        else:
            item, pos = _string_at(text, pos)
            items.append(item)
        if text.startswith(", ", pos):
            pos += 2
        elif not text.startswith("]", pos):
            break
    return tuple(items), pos + 1


def _unquote(body: str) -> str:
    """Undo strace's C quoting; the bytes are decoded as UTF-8 (undecodable ones kept)."""

    def replace(match: re.Match[str]) -> str:
        code = match[1]
        if code[0] in "01234567":
            return chr(int(code, 8) & 0xFF)
        if code[0] == "x" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _SIMPLE_ESCAPES.get(code, code)

    raw = _ESCAPE.sub(replace, body).encode("latin-1")
    return raw.decode("utf-8", "surrogateescape")
