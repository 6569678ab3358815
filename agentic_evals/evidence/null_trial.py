"""Vacuity: the checks of a case that pass on the null trial prove nothing.

The null trial (:mod:`agentic_evals.oracles.null_trial`) is what a program
that does nothing would leave: the exit code the case expects, empty stdout
and stderr, and the tree as it was before the command ran. A check that
passes there could not have told a working program from an idle one: it is
*vacuous*. From the problems the null trial raised:

- Stream checks see empty streams: ``stdout_excludes`` always passes, a
  ``stdout_contains`` entry fails unless it is empty, a pattern fails unless
  it matches empty output.
- Artifact checks see the tree before the command ran; ``workspace_changes``
  sees no change.
- ``readback: true`` declares that the command reads state back itself; its
  result can only show in what the command prints. It is vacuous unless a
  check on output (``*_contains``, ``*_regex``) fails on the null trial:
  with the exit code alone behind it (a no-op exits 0 too) it proves nothing.
- The exit code check is the null trial's own premise: it is never reported
  as vacuous, and it never makes a case non-vacuous either.
- ``must_exercise`` is never vacuous: nothing ran.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from agentic_evals.contract.models import Case
from agentic_evals.evidence.checks import case_checks

PREMISE: Final = "exit_code"
"""The check the null trial satisfies by construction."""
NEVER_VACUOUS: Final = frozenset({PREMISE, "must_exercise"})
"""Checks never reported as vacuous: the premise, and what needs a run."""
SHOWN_IN_OUTPUT: Final = ("stdout_contains", "stderr_contains", "stdout_regex", "stderr_regex")
"""Checks on output that a command's own readback shows its result through."""


def vacuous_checks(case: Case, failures: Collection[str]) -> frozenset[str]:
    """The pointers of the checks of ``case`` that pass on a null trial raising ``failures``.

    ``failures`` are the pointers of the problems the null trial raised.
    """

    def fails(pointer: str) -> bool:
        return any(o == pointer or o.startswith(f"{pointer}/") for o in failures)

    checks = case_checks(case)
    shown = any(c.oracle in SHOWN_IN_OUTPUT and fails(c.pointer) for c in checks)
    return frozenset(
        check.pointer
        for check in checks
        if check.oracle not in NEVER_VACUOUS
        and not fails(check.pointer)
        and not (check.oracle == "readback" and shown)
    )
