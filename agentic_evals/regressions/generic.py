"""Is a ``failure_code`` generic: would any failure at all show it? Pure.

A regression's ``failure_code`` names *the guard's reason*. A code of the
tool (``EXIT_CODE``, ``ARTIFACT_MISMATCH``, ...) or an oracle pointer
(``/expected/...``) names one; so does specific text
(``gate_exits_zero_on_non_ready``). Text that every broken program prints
does not: ``error``, ``failed``, ``Traceback``, ``No such file or directory``,
an exit status alone (``exit 1``, ``exit status 2``), an exception's class
name. Such a code is generic: the text is split into words, and it is generic
when every word is one any failure could say (or a number).
"""

from __future__ import annotations

import re
from typing import Final

from agentic_evals import codes

_FILLER: Final = frozenset(
    """
    a abort aborted an and assert assertion at bad by call code codes command denied directory err
    errno error errors exception exceptions exit exited exits fail failed failing fails failure
    failures false fatal file found has in invalid is last most no non nonzero not occurred of on
    or permission problem rc recent return returncode returned something status such test tests
    the traceback unexpected unexpectedly was went with wrong zero
    """.split()
)
"""Words any failing program could print: alone or together they name no reason."""

_WORD: Final = re.compile(r"[a-z0-9]+")
_EXCEPTION_NAME: Final = re.compile(r"[a-z0-9]*(?:error|exception|exit|interrupt)")


def is_generic(code: str) -> bool:
    """``code`` names no reason: it is no code of the tool and has no specific word."""
    if code in codes.PROBLEM_CODES or code.startswith("/expected"):
        return False
    words = _WORD.findall(code.lower())
    return all(
        word in _FILLER or word.isdigit() or _EXCEPTION_NAME.fullmatch(word) for word in words
    )


def tool_code_hint(code: str) -> str:
    """``; did you mean 'EXIT_CODE'?`` when ``code`` is a tool code written in another case."""
    upper = re.sub(r"[^A-Z0-9]+", "_", code.upper()).strip("_")
    return f"; did you mean {upper!r}?" if upper in codes.PROBLEM_CODES else ""
