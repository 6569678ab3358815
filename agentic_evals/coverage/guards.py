"""Which cases can guard a seam: an oracle that can fail, in an effective class. Pure.

A case *covers* a seam only when it lists the seam, is required (a
``required: false`` case never gates readiness, so a regression it catches
still ships: ``NOT_REQUIRED_CASE``) and carries at least one oracle that can
fail against a broken program; anything else is ``weak``
(``NO_FAILING_ORACLE``): above all a bare ``exit_code: 0`` case, positive or
not, which any program that merely starts satisfies.

Which oracles can fail, and the *effective* evidence classes (a pseudo-live
case counts in the class it is downgraded to), are read from the evidence
fact table (:mod:`agentic_evals.evidence.facts`), as the gates and the claim
verdicts read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import LIVE_CLASSES
from agentic_evals.evidence.facts import evidence_table


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


def weak_reasons(case: Case, oracles: Sequence[str]) -> list[str]:
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
    table = evidence_table(fixture, fixture_dir)
    found: list[CaseFacts] = []
    for case, index in zip(fixture.cases, indices, strict=True):
        facts = table[case.name]
        oracles = facts.failing_oracles
        found.append(
            CaseFacts(
                ref=f"{prefix}{case.name}",
                file=file,
                pointer=f"/cases/{index}",
                seams=tuple(case.seams),
                declared_class=facts.declared_class,
                effective_class=facts.effective_class,
                live=facts.effective_class in LIVE_CLASSES,
                downgraded=facts.downgraded and facts.declared_class in LIVE_CLASSES,
                oracles=oracles,
                weak_reasons=tuple(weak_reasons(case, oracles)),
            )
        )
    return found
