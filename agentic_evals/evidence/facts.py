"""The fact table: what each case of a fixture can prove, decided once per case.

Every consumer reads these facts and none decides them again, so they cannot
disagree: the anti-slop gate (does a real-world case exercise a live path,
does a command prove anything), live qualification (the declared and
effective evidence class, and why a live declaration fell), seam coverage
(which oracles can fail) and claim verdicts (which claims a shared live case
carries its own artifacts for). Merged reports carry these facts in their
case records, so ``merge`` judges them exactly as a run does.

The facts here are static: they follow from the fixture and the skill tree,
before anything runs. What a trial did (the checks its null trial would
already pass, the entrypoints its trace shows) belongs to the same case and
is kept beside these facts, per trial, when the runner records it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from agentic_evals.commands.analysis import CommandAnalysis, analyze
from agentic_evals.commands.context import case_context
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import LIVE_CLASSES, EvidenceClass
from agentic_evals.evidence.checks import (
    Check,
    case_checks,
    claims_with_own_artifacts,
    oracles_that_can_fail,
    readback_oracles,
)
from agentic_evals.evidence.classes import FALLBACK, class_disqualifiers
from agentic_evals.evidence.qualification import (
    LIVE_PATH_CODES,
    Disqualifier,
    declared_class,
    disqualifiers,
    effective_class,
)
from agentic_evals.reports.model import ClaimEvidence


class CaseEvidence(NamedTuple):
    """What one case can prove, before it runs."""

    case: Case
    """The case."""
    analysis: CommandAnalysis
    """Its command, read structurally."""
    checks: tuple[Check, ...]
    """Its checks, and what each can prove."""
    blockers: tuple[Disqualifier, ...]
    """Every reason it does not count as live (whatever it declares)."""
    declared_class: EvidenceClass
    """Its evidence class as declared (absent declares ``live_e2e``)."""
    effective_class: EvidenceClass
    """The slot it may fill, after live qualification."""
    own_artifact_claims: frozenset[str]
    """The claims it supports that an artifact check of its own names alone."""
    class_games: tuple[Disqualifier, ...] = ()
    """Why its declared class is contradicted by the case or its fixture (:mod:`.classes`)."""

    @property
    def failing_oracles(self) -> tuple[str, ...]:
        """Its oracles that can fail against a broken program (empty: it detects nothing)."""
        return oracles_that_can_fail(self.checks)

    @property
    def readback_oracles(self) -> tuple[str, ...]:
        """Its oracles that read state back independently."""
        return readback_oracles(self.checks)

    @property
    def live_qualified(self) -> bool:
        """A live declaration that survived qualification."""
        return self.declared_class in LIVE_CLASSES and not self.blockers

    @property
    def downgraded(self) -> bool:
        """A live declaration that fell, or another declaration its case contradicts."""
        if self.declared_class in LIVE_CLASSES:
            return bool(self.blockers)
        return bool(self.class_games)

    @property
    def disqualifiers(self) -> list[str]:
        """Why a declaration fell, as codes (empty when it stands)."""
        if self.declared_class in LIVE_CLASSES:
            return [item.code for item in self.blockers]
        return [item.code for item in self.class_games]

    @property
    def live_path_problem(self) -> str | None:
        """Why it exercises no live path without stubs, in words; ``None`` when it does."""
        return next((i.reason for i in self.blockers if i.code in LIVE_PATH_CODES), None)

    @property
    def carries_its_claims(self) -> bool:
        """It supports at most one claim, or names each of its claims in an artifact alone."""
        claims = set(self.case.supports_claims)
        return len(claims) <= 1 or self.own_artifact_claims == claims


def case_evidence(
    case: Case, analysis: CommandAnalysis, skill: str, fixture: Fixture | None = None
) -> CaseEvidence:
    """The facts of ``case`` of the skill ``skill``, its command read as ``analysis``.

    ``fixture`` (the case's own) adds the class rules that depend on it (:mod:`.classes`).
    """
    checks = case_checks(case)
    reasons = disqualifiers(case, analysis, skill, readback_oracles(checks))
    games = class_disqualifiers(case, checks, fixture)
    reasons += games
    declared = declared_class(case)
    effective = effective_class(case, analysis, reasons)
    if games and declared not in LIVE_CLASSES:
        effective = FALLBACK
    return CaseEvidence(
        case=case,
        analysis=analysis,
        checks=checks,
        blockers=tuple(reasons),
        declared_class=declared,
        effective_class=effective,
        own_artifact_claims=claims_with_own_artifacts(case, case.supports_claims),
        class_games=tuple(games),
    )


def evidence_table(fixture: Fixture, fixture_dir: Path) -> dict[str, CaseEvidence]:
    """The facts of every case of ``fixture`` (living in ``fixture_dir``), by name, in order."""
    return {
        case.name: case_evidence(
            case,
            analyze(case.command, case_context(fixture, case, fixture_dir)),
            fixture.skill,
            fixture,
        )
        for case in fixture.cases
    }


def fills_slot(entry: ClaimEvidence, evidence_class: str) -> bool:
    """Whether a supporting case, as its claim recorded it, fills ``evidence_class``'s slot.

    Run and merge judge claims from these records alike.
    """
    return not entry.ineligible and entry.effective_evidence_class == evidence_class
