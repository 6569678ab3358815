"""Which cases can guard a seam: an oracle that can fail, in an effective class. Pure.

A case *covers* a seam only when it lists the seam, is required (a
``required: false`` case never gates readiness, so a regression it catches
still ships: ``NOT_REQUIRED_CASE``) and carries at least one oracle that can
fail against a broken program. Oracles that can fail:

- ``exit_code`` other than 0 (a program that does nothing exits 0);
- ``stdout_contains`` / ``stderr_contains`` with a non-empty entry;
- ``stdout_excludes`` / ``stderr_excludes`` with a non-empty entry;
- ``artifacts`` checks, or a non-empty ``workspace_changes`` assertion;
- ``must_exercise`` entries (the traced exec can be missing);
- ``readback: true`` (the command itself reads state back, as SPEC 4 counts it).

Anything else is ``weak`` (``NO_FAILING_ORACLE``): above all a bare
``exit_code: 0`` case, positive or not, which any program that merely starts
satisfies. ``blocked_when_stdout_contains`` and ``infra_blocked_when`` make a
trial BLOCKED, never FAIL, so they are no oracle.

Evidence classes are the *effective* ones of live qualification
(:func:`agentic_evals.evidence.qualification.qualify_cases`): a pseudo-live case
(no readback, stubs, no entrypoint) counts in the class it is downgraded to.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import LIVE_CLASSES
from agentic_evals.evidence.qualification import qualify_cases


class CaseFacts(NamedTuple):
    """What coverage knows of one case, statically."""

    ref: str
    """How reports name it: ``name``, or ``file#name`` outside the primary fixture."""
    file: str
    """Its fixture file, relative to the skill folder."""
    pointer: str
    """Its JSON pointer in that file (``/cases/3``)."""
    seams: tuple[str, ...]
    """Seam ids it lists."""
    declared_class: str
    """Evidence class as declared (absent declares ``live_e2e``)."""
    effective_class: str
    """Evidence class after live qualification."""
    live: bool
    """Its effective class is live."""
    downgraded: bool
    """It declared a live class and was downgraded."""
    oracles: tuple[str, ...]
    """Its oracles that can fail (empty: it cannot detect a regression)."""
    weak_reasons: tuple[str, ...]
    """Why it cannot guard (empty: it is a capable guard)."""


def failing_oracles(case: Case) -> list[str]:
    """Name the oracles of ``case`` that can fail against a broken program."""
    expected = case.expected
    found: list[str] = []
    if expected.exit_code != 0:
        found.append("exit_code")
    for name in ("stdout_contains", "stderr_contains", "stdout_excludes", "stderr_excludes"):
        if any(entry for entry in getattr(expected, name)):
            found.append(name)
    if expected.artifacts:
        found.append("artifacts")
    changes = expected.workspace_changes
    if changes and (changes.added or changes.changed or changes.removed or changes.only):
        found.append("workspace_changes")
    if case.must_exercise:
        found.append("must_exercise")
    if case.readback:
        found.append("readback")
    return found


def weak_reasons(case: Case, oracles: list[str]) -> list[str]:
    """Why ``case`` cannot guard a seam (empty: it can)."""
    reasons: list[str] = []
    if not oracles:
        reasons.append(codes.NO_FAILING_ORACLE)
    if not case.required:
        reasons.append(codes.NOT_REQUIRED_CASE)
    return reasons


def case_facts(
    fixture: Fixture, fixture_dir: Path, file: str, prefix: str, indices: Sequence[int]
) -> list[CaseFacts]:
    """Facts of every case of ``fixture`` (living in ``fixture_dir``, named ``file``).

    ``prefix`` is put before each case name in its ``ref`` (``""`` for the
    primary fixture); ``indices`` are the cases' positions in the document.
    """
    qualified = qualify_cases(fixture, fixture_dir)
    facts: list[CaseFacts] = []
    for case, index in zip(fixture.cases, indices, strict=True):
        quality = qualified[case.name]
        oracles = failing_oracles(case)
        facts.append(
            CaseFacts(
                ref=f"{prefix}{case.name}",
                file=file,
                pointer=f"/cases/{index}",
                seams=tuple(case.seams),
                declared_class=quality.declared,
                effective_class=quality.effective,
                live=quality.effective in LIVE_CLASSES,
                downgraded=quality.declared in LIVE_CLASSES and not quality.live_qualified,
                oracles=tuple(oracles),
                weak_reasons=tuple(weak_reasons(case, oracles)),
            )
        )
    return facts
