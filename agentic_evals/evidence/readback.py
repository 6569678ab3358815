"""Whether a case carries an independent readback oracle (SPEC section 4). Pure.

An exit code plus the program's own success prose is no proof: a program that
did nothing can print "done" and exit 0. An oracle reads state back
independently when it looks at something other than that prose:

- ``artifacts`` checks or ``workspace_changes`` assertions (the files the run
  left behind), or ``readback: true`` (the command itself reads state back);
- ``stdout_excludes``, but only with an entry that names a claim-specific
  wrong outcome (say ``"workflow-resume"`` or ``"status: degraded"``). An
  entry that is a generic crash or log marker (``Traceback``, ``Error``,
  ``FAILED``, ``panic``...), or shorter than four characters, is avoided by
  any program that merely prints success, so ``stdout_excludes:
  ["Traceback"]`` alone is not a readback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from agentic_evals.contract.models import Case

GENERIC_MARKERS: Final = frozenset(
    {"traceback", "traceback (most recent call last)", "most recent call last"}
    | {"error", "errors", "err", "exception", "unhandled exception", "stack trace", "stacktrace"}
    | {"fail", "failed", "failure", "fatal", "fatal error", "panic", "panicked", "abort"}
    | {"aborted", "crash", "crashed", "killed", "segmentation fault", "core dumped", "warning"}
    | {"warn", "critical", "undefined", "null", "none", "nan", "todo", "fixme", "assertionerror"}
    | {"syntaxerror", "typeerror", "valueerror", "keyerror", "runtimeerror", "not found"}
    | {"command not found", "no such file or directory", "permission denied", "debug", "info"}
)
"""Markers that any merely successful program avoids: they prove nothing specific."""

MIN_SPECIFIC_CHARS: Final = 4
"""An exclude entry shorter than this (after trimming) is too vague to be a readback."""

_TRIM = re.compile(r"^[\W_]+|[\W_]+$")


def is_generic_marker(entry: str) -> bool:
    """Whether a ``stdout_excludes`` entry is a generic crash or log marker.

    Case, surrounding punctuation (``"ERROR:"``, ``"[error]"``) and spacing
    are ignored.
    """
    core = " ".join(_TRIM.sub("", entry).lower().split())
    return len(core) < MIN_SPECIFIC_CHARS or core in GENERIC_MARKERS


def specific_excludes(entries: Iterable[str]) -> list[str]:
    """The ``stdout_excludes`` entries that name a claim-specific wrong outcome."""
    return [entry for entry in entries if not is_generic_marker(entry)]


def readback_oracles(case: Case) -> list[str]:
    """Name the independent readback oracles of ``case`` (empty: it has none)."""
    expected = case.expected
    found: list[str] = []
    if case.readback:
        found.append("readback")
    if expected.artifacts:
        found.append("artifacts")
    if expected.workspace_changes is not None:
        found.append("workspace_changes")
    if specific_excludes(expected.stdout_excludes):
        found.append("stdout_excludes")
    return found


def has_readback(case: Case) -> bool:
    """Whether ``case`` has at least one independent readback oracle."""
    return bool(readback_oracles(case))
