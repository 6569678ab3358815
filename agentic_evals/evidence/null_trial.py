"""The null trial: which checks of a case would pass had the command done nothing.

The null trial is no process. It is what a program that does nothing would
leave: the exit code the case expects, empty stdout and stderr, and the tree
as it was before the command ran. Every oracle of the case is judged against
it; a check that passes there could not have told a working program from an
idle one, so it proves nothing (it is *vacuous*).

- Stream checks see empty streams: ``stdout_excludes`` always passes, a
  ``stdout_contains`` entry fails unless it is empty, a pattern fails unless
  it matches empty output.
- Artifact checks read the pre-trial tree (:class:`PreTrialState`: an
  overlay's lower layer, or a copy's input). A trial on the shared tree has
  none: its artifact checks are judged on the tree itself just before the
  command starts (:func:`null_trial_before`), which reads only the files the
  checks name.
- ``workspace_changes`` sees no change at all (the changes of an idle
  program), or, on the shared tree where changes are not recorded, none
  recorded.
- ``readback: true`` declares that the command reads state back itself; its
  result can only show in what the command prints. It passes on the null
  trial unless a check on output (``*_contains``, ``*_regex``) fails there:
  with the exit code alone behind it (a no-op exits 0 too) it proves nothing.
- The exit code check is the null trial's own premise: it is never reported
  as vacuous, and it never makes a case non-vacuous either.
- ``must_exercise`` never passes: nothing ran.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from agentic_evals.contract.models import Case
from agentic_evals.evidence.checks import case_checks
from agentic_evals.oracles.base import OracleContext, OracleResult
from agentic_evals.oracles.regex import RegexError, compile_pattern
from agentic_evals.oracles.registry import ORACLES
from agentic_evals.reports.model import WorkspaceChangesReport

PREMISE: Final = "exit_code"
"""The check the null trial satisfies by construction."""
NEVER_VACUOUS: Final = frozenset({PREMISE, "must_exercise"})
"""Checks never reported as vacuous: the premise, and what needs a run."""
TREE_ORACLES: Final = ("artifacts",)
"""Oracles that read the tree: on the shared tree they are judged before the command runs."""


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
            return compile_pattern(pattern).search(b"") is not None
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


NO_CHANGES: Final = WorkspaceChangesReport(added=[], changed=[], removed=[])


def _under(path: Path, old: Path, new: Path) -> Path:
    """``path``, moved from under ``old`` to under ``new`` (unchanged when not under it)."""
    return new / path.relative_to(old) if path.is_relative_to(old) else path


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


SHOWN_IN_OUTPUT: Final = ("stdout_contains", "stderr_contains", "stdout_regex", "stderr_regex")
"""Checks on output that a command's own readback shows its result through."""


def _passing(case: Case, result: OracleResult, judged: tuple[str, ...] | None) -> frozenset[str]:
    """The pointers of the checks of ``case`` (of the oracles ``judged``) no problem names."""
    failed = [p.oracle for p in result.problems if p.oracle]

    def fails(pointer: str) -> bool:
        return any(o == pointer or o.startswith(f"{pointer}/") for o in failed)

    checks = case_checks(case)
    shown = any(c.oracle in SHOWN_IN_OUTPUT and fails(c.pointer) for c in checks)
    return frozenset(
        check.pointer
        for check in checks
        if check.oracle not in NEVER_VACUOUS
        and (judged is None or check.oracle in judged)
        and not fails(check.pointer)
        and not (check.oracle == "readback" and shown)
    )


def _judge(case: Case, context: OracleContext, oracles: tuple[str, ...]) -> OracleResult:
    null = NullOutcome(exit_code=case.expected.exit_code)
    result = OracleResult()
    for name in oracles:
        result.extend(ORACLES[name](case.expected, null, context))
    return result


_OTHERS: Final = tuple(name for name in ORACLES if name not in (PREMISE, *TREE_ORACLES))


def null_trial(
    case: Case, context: OracleContext, before: frozenset[str] | None = None
) -> frozenset[str]:
    """The checks of ``case`` that pass on the null trial of a trial judged in ``context``.

    Args:
        case: The case.
        context: The trial's oracle context (after the trial).
        before: What :func:`null_trial_before` found for the tree checks, when
            the trial ran on the shared tree; else they are judged on the
            context's pre-trial state.

    Returns:
        The pointers of its vacuous checks (``/expected/artifacts/0``).
    """
    pre = pre_trial_context(context)
    if pre is not None:
        return _passing(case, _judge(case, pre, (*TREE_ORACLES, *_OTHERS)), None)
    # The shared tree: changes are not recorded, the tree checks were judged before the run.
    shared = dataclasses.replace(context, workspace_changes=None)
    rest = _passing(case, _judge(case, shared, _OTHERS), _OTHERS + ("readback",))
    return rest | (before or frozenset())


def null_trial_before(case: Case, context: OracleContext) -> frozenset[str] | None:
    """On the shared tree, just before the command runs: its tree checks that already pass.

    ``None`` when ``context`` has a pre-trial state (they are judged after the
    trial, on it) or the case has no tree checks.
    """
    if context.pre_trial is not None or not case.expected.artifacts:
        return None
    return _passing(case, _judge(case, context, TREE_ORACLES), TREE_ORACLES)


def load_time_null_trial(case: Case, context: OracleContext) -> frozenset[str]:
    """The null trial of ``case`` judged on the tree as it is now (before any trial).

    ``context`` is where the case's artifacts would resolve in the skill tree
    (or its workspace input); an isolated trial's view starts as exactly
    that, with no change recorded.
    """
    now = dataclasses.replace(context, workspace_changes=NO_CHANGES)
    return _passing(case, _judge(case, now, (*TREE_ORACLES, *_OTHERS)), None)
