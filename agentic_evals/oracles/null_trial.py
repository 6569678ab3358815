"""The null trial: every oracle of a case judged as if the command had done nothing.

It is no process: the exit code the case expects, empty stdout and stderr,
no change recorded, and the tree as it was before the command ran. What its
oracles find tells which checks could tell a working program from an idle
one; :mod:`agentic_evals.evidence.null_trial` reads that as vacuity.

- Artifact checks read the pre-trial tree (:class:`PreTrialState`: an
  overlay's lower layer, or a copy's input). A trial on the shared tree has
  none: its artifact checks are judged on the tree itself just before the
  command starts (:func:`null_trial_before`), which reads only the files the
  checks name.
- ``workspace_changes`` sees no change at all, or, on the shared tree where
  changes are not recorded, none recorded (as the real trial does).
- The exit code oracle is not judged: the null trial meets it by construction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.regex import RegexError, compile_pattern
from agentic_evals.oracles.registry import ORACLES, has_checks
from agentic_evals.reports.model import WorkspaceChangesReport

TREE_ORACLES: Final = ("artifacts",)
"""Oracles that read the tree: on the shared tree they are judged before the command runs."""
OTHER_ORACLES: Final = tuple(name for name in ORACLES if name not in ("exit_code", *TREE_ORACLES))
"""The oracles judged after the trial whatever the view."""
NO_CHANGES: Final = WorkspaceChangesReport(added=[], changed=[], removed=[])


class NullStream:
    """An empty output stream."""

    total_bytes = 0
    kept_bytes = 0
    truncated = False

    def contains(self, needle: bytes) -> bool:
        """Only the empty needle is in an empty stream."""
        return not needle

    def saw_all(self, needle: bytes) -> bool:
        """Nothing was dropped."""
        del needle
        return True

    def matches(self, pattern: str) -> bool:
        """Whether ``pattern`` matches empty output."""
        try:
            return compile_pattern(pattern).search(b"")
        except RegexError:
            return False

    def excerpt(self, limit_chars: int = 10_000) -> str:
        """Nothing."""
        del limit_chars
        return ""


@dataclasses.dataclass(frozen=True)
class NullOutcome:
    """What the process layer would observe of a program that did nothing."""

    exit_code: int | None
    term_signal: int | None = None
    timed_out: bool = False
    start_error: str | None = None
    duration_ms: int = 0
    stdout: NullStream = dataclasses.field(default_factory=NullStream)
    stderr: NullStream = dataclasses.field(default_factory=NullStream)
    orphan_pids: tuple[int, ...] = ()


def _under(path: Path, old: Path, new: Path) -> Path:
    """``path``, moved from under ``old`` to under ``new`` (unchanged when not under it)."""
    # On the strings: judged for every trial, and pathlib's parsing cost more than the rest.
    text, prefix = str(path), str(old)
    if text == prefix:
        return new
    if text.startswith(prefix.rstrip("/") + "/"):
        return new / text[len(prefix.rstrip("/")) + 1 :]
    return path


def pre_trial_context(context: OracleContext) -> OracleContext | None:
    """The context of ``context``'s null trial; ``None`` on the shared tree (no pre-trial state).

    Paths of the trial's view (its artifact root, the placeholders' roots)
    are moved to their pre-trial counterparts; nothing changed.
    """
    pre = context.pre_trial
    if pre is None:
        return None
    roots: Mapping[str, Path] = {
        name: _under(root, context.boundary, pre.root) for name, root in context.roots.items()
    }
    return OracleContext(pre.artifact_root, pre.root, NO_CHANGES, roots)


def _failures(case: Case, context: OracleContext, oracles: tuple[str, ...]) -> frozenset[str]:
    """The pointers of the problems ``oracles`` raise on the null trial in ``context``."""
    null = NullOutcome(exit_code=case.expected.exit_code)
    found: set[str] = set()
    for name in oracles:
        if not has_checks(case.expected, name):
            continue
        found |= {
            p.oracle for p in ORACLES[name](case.expected, null, context).problems if p.oracle
        }
    return frozenset(found)


def null_trial(
    case: Case, context: OracleContext, before: frozenset[str] | None = None
) -> frozenset[str]:
    """The pointers of the problems the null trial of a trial judged in ``context`` raises.

    Args:
        case: The case.
        context: The trial's oracle context (after the trial).
        before: What :func:`null_trial_before` found for the tree oracles, when
            the trial ran on the shared tree; else they are judged on the
            context's pre-trial state.
    """
    pre = pre_trial_context(context)
    if pre is not None:
        return _failures(case, pre, (*TREE_ORACLES, *OTHER_ORACLES))
    shared = dataclasses.replace(context, workspace_changes=None)
    return _failures(case, shared, OTHER_ORACLES) | (before or frozenset())


def null_trial_before(case: Case, context: OracleContext) -> frozenset[str] | None:
    """On the shared tree, just before the command runs: what the tree oracles find.

    ``None`` when ``context`` has a pre-trial state (they are judged after the
    trial, on it) or the case has no artifact checks.
    """
    if context.pre_trial is not None or not case.expected.artifacts:
        return None
    return _failures(case, context, TREE_ORACLES)


def load_time_null_trial(case: Case, context: OracleContext) -> frozenset[str]:
    """The problems of the null trial of ``case`` judged on the tree as it is now.

    ``context`` is where the case's artifacts would resolve in the skill tree
    (or its workspace input); an isolated trial's view starts as exactly
    that, with no change recorded.
    """
    now = dataclasses.replace(context, workspace_changes=NO_CHANGES)
    return _failures(case, now, (*TREE_ORACLES, *OTHER_ORACLES))
