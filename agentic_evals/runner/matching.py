r"""The stream oracles matched on the whole stream as it flows, in bounded memory.

The capture keeps the first 64 MiB of a stream; a program may print far
more. A :class:`StreamWatch` is fed every chunk the pump reads, kept or not,
so that what a case looks for in a stream (its ``*_contains`` and
``*_excludes`` strings, its blocked and infrastructure markers, its
``*_regex`` patterns) is judged on every byte written:

- a string is found wherever it occurs, across chunk boundaries too (the
  last ``len - 1`` bytes of the previous chunk are kept for that);
- a pattern is searched by the bounded engine (:mod:`agentic_evals.oracles.regex`,
  linear time) over a sliding window: every match of at most ``REGEX_SPAN``
  bytes is found, wherever it lies. A window is searched once it holds
  ``REGEX_SPAN`` new bytes; the ``2 * REGEX_SPAN`` bytes before them are
  kept as context, so a match near a window's end, where ``$`` or ``\b``
  cannot be judged yet, is judged again in the next window. ``^`` and ``\A``
  match only at the start of the stream (or after a newline with ``(?m)``).

Memory is bounded by the longest string and about ``3 * REGEX_SPAN`` per stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from agentic_evals.oracles.regex import BoundedRegex

REGEX_SPAN: Final = 2**20
"""Longest match a stream pattern is sure to find anywhere in the stream (1 MiB)."""
_CONTEXT: Final = 2 * REGEX_SPAN


class StreamWatch:
    """What one stream is watched for, and what was seen."""

    def __init__(self, needles: Iterable[bytes] = (), patterns: Iterable[BoundedRegex] = ()):
        self.needles = frozenset(needle for needle in needles if needle)
        self.found: set[bytes] = set()
        self._pending = set(self.needles)
        self._overlap = max((len(n) for n in self.needles), default=1) - 1
        self._carry = b""
        self.patterns = {pattern.pattern: pattern for pattern in patterns}
        self.matched: set[str] = set()
        self._window = b""
        self._offset = 0  # stream offset of the window's first byte
        self._fresh = 0  # bytes of the window not searched yet

    def feed(self, chunk: bytes) -> None:
        """Look at the next ``chunk`` of the stream."""
        if not chunk:
            return
        if self._pending:
            self._find(chunk)
        if len(self.matched) < len(self.patterns):
            self._window += chunk
            self._fresh += len(chunk)
            if self._fresh >= REGEX_SPAN:
                self._search(final=False)

    def finish(self) -> None:
        """The stream ended: judge what is left."""
        if len(self.matched) < len(self.patterns):
            self._search(final=True)
        self._window = self._carry = b""

    def _find(self, chunk: bytes) -> None:
        window = self._carry + chunk
        for needle in list(self._pending):
            if needle in window:
                self.found.add(needle)
                self._pending.discard(needle)
        self._carry = window[-self._overlap :] if self._overlap else b""

    def _search(self, *, final: bool) -> None:
        # The window's first byte (after the first window) is context only: `^` cannot
        # match at a cut, and `\b` sees the byte before.
        start = 1 if self._offset > 0 else 0
        data = self._window
        # Mid-stream, only matches that end before the last REGEX_SPAN bytes are judged:
        # nearer the end, `$` or `\b` need bytes not seen yet (the next window has them).
        limit = len(data) if final else len(data) - REGEX_SPAN
        for text, pattern in self.patterns.items():
            if text not in self.matched and _matches(pattern, data, start, limit, final):
                self.matched.add(text)
        keep = min(len(data), _CONTEXT + 1)
        self._offset += len(data) - keep
        self._window = data[len(data) - keep :]
        self._fresh = 0


_RETRIES: Final = 8
"""Matches ending at a mid-stream window's limit tried past, per window (then: next window)."""


def _matches(pattern: BoundedRegex, data: bytes, start: int, limit: int, final: bool) -> bool:
    """Whether ``pattern`` matches in ``data[start:limit]``, judged with the bytes around it."""
    # The engine's own position arguments keep the context around the searched range.
    compiled = pattern._compiled  # noqa: SLF001  (the bounded engine's compiled RE2 pattern)
    at = start
    for _ in range(_RETRIES):
        found = compiled.search(data, at, limit)
        if found is None:
            return False
        if final or found.end() < limit:
            return True
        at = found.start() + 1
        if at > limit:
            return False
    return False
