"""What each check of a case can prove: whether it can fail, whether it reads state back.

This is the one place that decides it; the anti-slop gate, live
qualification, seam coverage and claim verdicts all read it. Per check (one
entry of an oracle list is one check, located by its pointer in the case):

- *can fail*: a program that does nothing, or does the wrong thing, can fail
  it. ``exit_code: 0`` cannot (a program that merely starts exits 0);
  an empty ``stdout_contains``/``excludes`` entry cannot; a
  ``workspace_changes`` assertion with no pattern and no ``only`` asserts
  nothing and cannot. ``blocked_when_stdout_contains`` and
  ``infra_blocked_when`` make a trial BLOCKED, never FAIL: they are no checks.
- *reads back*: it looks at something other than the program's own success
  prose (SPEC section 4: an exit code plus "done" is no proof). Artifact
  checks, a ``workspace_changes`` assertion that can fail, ``readback: true``
  (the command itself reads state back), and a ``stdout_excludes`` entry that
  names a claim-specific wrong outcome (``"status: degraded"``). An entry that
  is a generic crash or log marker (``Traceback``, ``Error``, ``FAILED``...)
  or shorter than four characters is avoided by any program that merely
  prints success, so it is no readback. A check that reads back can fail.

Per-claim artifacts: an artifact check *names* a claim when one component of
its path (or glob) equals the claim id, with or without its extension
(``out/ae.run.fails_closed.json``), and it reads an existing file (``absent``
and ``exists: false`` checks read nothing back). A check that names two of
the claims counts for neither.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from pathlib import PurePosixPath
from typing import Final, NamedTuple

from agentic_evals.contract.models import ArtifactCheck, Case
from agentic_evals.oracles.regex import RegexError, compile_pattern

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
_STREAM_LISTS: Final = ("stdout_contains", "stderr_contains", "stdout_excludes", "stderr_excludes")
_STREAM_PATTERNS: Final = ("stdout_regex", "stderr_regex")


class Check(NamedTuple):
    """One check of a case and what it can prove."""

    oracle: str
    """The oracle it belongs to (``exit_code``, ``stdout_contains``, ``artifacts``...)."""
    pointer: str
    """Its RFC 6901 pointer within the case (``/expected/artifacts/0``)."""
    can_fail: bool
    """A program that did nothing, or the wrong thing, can fail it."""
    reads_back: bool
    """It reads state back independently of the program's own success prose."""


def is_generic_marker(entry: str) -> bool:
    """Whether a ``stdout_excludes`` entry is a generic crash or log marker.

    Case, surrounding punctuation (``"ERROR:"``, ``"[error]"``) and spacing
    are ignored.
    """
    core = " ".join(_TRIM.sub("", entry).lower().split())
    return len(core) < MIN_SPECIFIC_CHARS or core in GENERIC_MARKERS


def can_fail_to_match(pattern: str) -> bool:
    """Whether a stream pattern can fail: one that matches empty output matches any output."""
    try:
        return not compile_pattern(pattern).search(b"")
    except RegexError:
        return False  # refused at load time; it proves nothing


def case_checks(case: Case) -> tuple[Check, ...]:
    """Every check of ``case``, in the order the case writes them."""
    expected = case.expected
    found = [Check("exit_code", "/expected/exit_code", expected.exit_code != 0, False)]
    for name in _STREAM_LISTS:
        for index, entry in enumerate(getattr(expected, name)):
            specific = name == "stdout_excludes" and bool(entry) and not is_generic_marker(entry)
            found.append(Check(name, f"/expected/{name}/{index}", bool(entry), specific))
    for name in _STREAM_PATTERNS:
        for index, pattern in enumerate(getattr(expected, name)):
            can_fail = can_fail_to_match(pattern)
            found.append(Check(name, f"/expected/{name}/{index}", can_fail, False))
    for index, _ in enumerate(expected.artifacts):
        found.append(Check("artifacts", f"/expected/artifacts/{index}", True, True))
    changes = expected.workspace_changes
    if changes is not None:
        asserts = bool(changes.added or changes.changed or changes.removed or changes.only)
        found.append(Check("workspace_changes", "/expected/workspace_changes", asserts, asserts))
    for index, _ in enumerate(case.must_exercise):
        found.append(Check("must_exercise", f"/must_exercise/{index}", True, False))
    if case.readback:
        found.append(Check("readback", "/readback", True, True))
    return tuple(found)


def oracles_that_can_fail(checks: Iterable[Check]) -> tuple[str, ...]:
    """The oracles with at least one check that can fail, in order."""
    return tuple(dict.fromkeys(check.oracle for check in checks if check.can_fail))


def readback_oracles(checks: Iterable[Check]) -> tuple[str, ...]:
    """The oracles with at least one check that reads state back, in order."""
    return tuple(dict.fromkeys(check.oracle for check in checks if check.reads_back))


def _names(target: str) -> set[str]:
    """The claim ids a path can name: each component, with and without its extension."""
    names: set[str] = set()
    for part in PurePosixPath(target).parts:
        names.add(part)
        stem, dot, _ = part.rpartition(".")
        if dot and stem:
            names.add(stem)
    return names


def reads_a_file(check: ArtifactCheck) -> bool:
    """Whether an artifact check reads a file (``absent``, ``exists: false`` read none)."""
    return not (check.absent or check.exists is False)


def claims_with_own_artifacts(case: Case, claim_ids: Collection[str]) -> frozenset[str]:
    """The claims among ``claim_ids`` that an artifact check of ``case`` names alone."""
    own: set[str] = set()
    for check in case.expected.artifacts:
        if not reads_a_file(check):
            continue  # the absence of a file is no artifact the case carries
        named = _names(check.path or check.glob or "") & set(claim_ids)
        if len(named) == 1:
            own |= named
    return frozenset(own)
