"""Regular expressions over what a trial left behind, in time linear in the input.

Every pattern an oracle searches with (``content_regex`` today, the stream
patterns later) is compiled here, once, by RE2: a pattern such as
``^(a+)+$`` that makes a backtracking engine run for hours over a 1 MiB
artifact is searched in milliseconds, because RE2 never backtracks. The price
is syntax: backreferences and look-around assertions are refused when the
pattern is compiled, and ``$`` without ``(?m)`` matches only at the very end
of the input (the accepted syntax is in ``docs/limits.md``).

The bounds (pattern length, the engine's memory, the input's size) are in
:mod:`agentic_evals.limits`; breaking one is a :class:`RegexError`, as is a
pattern that does not compile, each with a message that says which.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Final

from agentic_evals.limits import MAX_REGEX_BYTES, MAX_REGEX_INPUT_BYTES, MAX_REGEX_MEMORY

SYNTAX: Final = "RE2"
"""The syntax patterns are written in, for messages and the documentation."""


class RegexError(Exception):
    """A pattern that cannot be used, or an input beyond a bound; the message says which."""


@functools.cache
def _engine() -> tuple[ModuleType, Any]:
    """RE2 and its options, imported on the first pattern (it costs a run's start-up ~15 ms)."""
    import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

    options = re2.Options()
    options.max_mem = MAX_REGEX_MEMORY
    options.log_errors = False  # the error comes back as RegexError, not on stderr
    return re2, options


class BoundedRegex:
    """A compiled pattern; searching it costs time linear in the input."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        """Compile ``pattern``.

        Raises:
            RegexError: the pattern is longer than ``MAX_REGEX_BYTES``, is not
                valid RE2 syntax (backreferences, look-around, a lone
                surrogate...), or needs more than ``MAX_REGEX_MEMORY``.
        """
        self.pattern = pattern
        try:
            encoded = pattern.encode("utf-8")
        except UnicodeEncodeError:
            raise RegexError("the pattern holds a lone surrogate, which is not text") from None
        if len(encoded) > MAX_REGEX_BYTES:
            raise RegexError(
                f"the pattern has {len(encoded):,} bytes; at most {MAX_REGEX_BYTES:,} are accepted"
            )
        engine, options = _engine()
        try:
            self._compiled = engine.compile(encoded, options)
        except engine.error as error:
            raise RegexError(f"not a valid {SYNTAX} pattern: {_reason(error)}") from None

    def search(self, data: str | bytes) -> bool:
        """Whether the pattern matches anywhere in ``data``.

        Text is searched as UTF-8 (a lone surrogate is one character, which
        only ``.`` and negated classes match); bytes are searched as they are.

        Raises:
            RegexError: ``data`` holds more than ``MAX_REGEX_INPUT_BYTES`` bytes.
        """
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        if len(raw) > MAX_REGEX_INPUT_BYTES:
            raise RegexError(
                f"the input has {len(raw):,} bytes; at most {MAX_REGEX_INPUT_BYTES:,} are searched"
            )
        return self._compiled.search(raw) is not None


def compile_pattern(pattern: str) -> BoundedRegex:
    """Compile ``pattern`` once, for any number of searches (see :class:`BoundedRegex`)."""
    return BoundedRegex(pattern)


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be used, or None when it compiles within the bounds."""
    try:
        compile_pattern(pattern)
    except RegexError as error:
        return str(error)
    return None


_HINTS: Final = (
    ("invalid escape sequence: \\Z", "the end of the input is written \\z"),
    ("invalid escape sequence: \\1", "backreferences are not supported"),
    ("invalid perl operator: (?=", "look-ahead is not supported"),
    ("invalid perl operator: (?!", "look-ahead is not supported"),
    ("invalid perl operator: (?<", "look-behind is not supported"),
)
"""Where Python's ``re`` syntax and RE2's part, what to say besides RE2's own words."""


def _reason(error: Exception) -> str:
    detail = error.args[0] if error.args else error
    text = detail.decode("utf-8", "backslashreplace") if isinstance(detail, bytes) else str(detail)
    hints = [hint for start, hint in _HINTS if text.startswith(start)]
    return f"{text} ({hints[0]})" if hints else text
