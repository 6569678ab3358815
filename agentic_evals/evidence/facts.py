"""The fact table: what each case of a fixture can prove, decided once per case.

Every consumer reads these facts and none decides them again, so they cannot
disagree: the anti-slop gate (does a real-world case exercise a live path,
does a command prove anything), live qualification (the declared and
effective evidence class, and why a live declaration fell), seam coverage
(which oracles can fail) and claim verdicts (which claims a shared live case
carries its own artifacts for). Merged reports carry these facts in their
case records, so ``merge`` judges them exactly as a run does.

The facts here follow from the fixture and the skill tree before anything
runs, the null trial included (:mod:`.null_trial`, judged on the tree as it
is). What the trials did (each one's own null trial, what its trace shows)
replaces that reading once they ran: :func:`agentic_evals.evidence.observed.observe`
makes the same facts from them, through :func:`case_evidence`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from agentic_evals.commands.analysis import CommandAnalysis, CommandContext, analyze
from agentic_evals.commands.context import case_context
from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import HOSTILE_TYPES, LIVE_CLASSES, EvidenceClass
from agentic_evals.evidence.checks import (
    Check,
    case_checks,
    claims_with_own_artifacts,
    is_generic_marker,
    oracles_that_can_fail,
    readback_oracles,
)
from agentic_evals.evidence.classes import FALLBACK, class_disqualifiers
from agentic_evals.evidence.null_trial import PREMISE, vacuous_checks
from agentic_evals.evidence.qualification import (
    LIVE_PATH_CODES,
    Disqualifier,
    declared_class,
    disqualifiers,
    effective_class,
)
from agentic_evals.evidence.traced import env_injection, trace_blockers
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.null_trial import load_time_null_trial
from agentic_evals.reports.model import ClaimEvidence, TrialReport

REASON_ORACLES = frozenset(
    {"stdout_contains", "stderr_contains", "stdout_regex", "stderr_regex", "artifacts"}
)
"""Oracles whose check can show why a negative case failed: its output, or an artifact."""
BLIND_EXIT_CODES = frozenset({126, 127})
"""Exit codes of a program that could not run (not executable, not found): no reason shown."""


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
    vacuous: frozenset[str] = frozenset()
    """The pointers of its checks that pass on the null trial (see :mod:`.null_trial`)."""
    blind_failure: bool = False
    """A trial of it could not run its program (exit 126/127, ``EXEC_FAILED``)."""
    class_games: tuple[Disqualifier, ...] = ()
    """Why its declared class is contradicted by the case or its fixture (:mod:`.classes`)."""
    context_blockers: tuple[Disqualifier, ...] = ()
    """Reasons not to count as live read from the case's context, not from its facts (an
    environment that hijacks the interpreter, :func:`.traced.env_injection`)."""

    @property
    def evidence_checks(self) -> tuple[Check, ...]:
        """Its checks that fail on the null trial: the only ones that prove anything."""
        return tuple(
            check
            for check in self.checks
            if check.oracle != PREMISE and check.can_fail and check.pointer not in self.vacuous
        )

    @property
    def vacuous_checks(self) -> tuple[str, ...]:
        """The pointers of its vacuous checks, in the order the case writes them."""
        return tuple(check.pointer for check in self.checks if check.pointer in self.vacuous)

    @property
    def weak(self) -> bool:
        """No check of it fails on the null trial: it fills no evidence slot."""
        return not self.evidence_checks

    @property
    def failing_oracles(self) -> tuple[str, ...]:
        """Its oracles with a check that fails on the null trial (empty: it detects nothing)."""
        return oracles_that_can_fail(self.evidence_checks)

    @property
    def readback_oracles(self) -> tuple[str, ...]:
        """Its oracles with a non-vacuous check that reads state back independently."""
        return readback_oracles(self.evidence_checks)

    @property
    def reason_problem(self) -> str | None:
        """For a negative or adversarial case: why it does not show its reason, in words.

        ``None`` when it shows it (a non-vacuous check on output or an
        artifact, other than a generic marker such as ``not found``, on a
        program that ran), and for other case types.
        """
        case = self.case
        if case.type not in HOSTILE_TYPES:
            return None
        if case.expected.exit_code in BLIND_EXIT_CODES:
            return f"expects exit {case.expected.exit_code}, a program that could not run"
        if self.blind_failure:
            return "a trial's program could not run (exit 126/127 or EXEC_FAILED)"
        shown = [c for c in self.evidence_checks if c.oracle in REASON_ORACLES]
        if not any(not _generic(case, c) for c in shown):
            return (
                "no check on its output or an artifact fails on the null trial "
                "(a missing program, a missing input or `|| true` prove nothing)"
            )
        return None

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


def _generic(case: Case, check: Check) -> bool:
    """Whether a ``*_contains`` check looks for a generic marker (``not found``, ``Error``)."""
    if check.oracle not in ("stdout_contains", "stderr_contains"):
        return False
    entries: list[str] = getattr(case.expected, check.oracle)
    return is_generic_marker(entries[int(check.pointer.rpartition("/")[2])])


def case_evidence(
    case: Case,
    analysis: CommandAnalysis,
    skill: str,
    vacuous: frozenset[str],
    *,
    blind_failure: bool = False,
    fixture: Fixture | None = None,
    games: tuple[Disqualifier, ...] | None = None,
    context: tuple[Disqualifier, ...] = (),
) -> CaseEvidence:
    """The facts of ``case`` of the skill ``skill``.

    Args:
        case: The case.
        analysis: Its command, read structurally.
        skill: The fixture's skill.
        vacuous: The pointers of its checks that pass on the null trial.
        blind_failure: A trial of it could not run its program.
        fixture: The case's own fixture, for the class rules that depend on it
            (:mod:`.classes`).
        games: Those class rules' reasons, already read (instead of ``fixture``).
        context: The reasons read from the case's context (see ``context_blockers``).
    """
    checks = case_checks(case)
    if games is None:
        games = tuple(class_disqualifiers(case, checks, fixture))
    facts = CaseEvidence(
        case=case,
        analysis=analysis,
        checks=checks,
        blockers=(),
        declared_class=declared_class(case),
        effective_class=declared_class(case),
        own_artifact_claims=claims_with_own_artifacts(case, case.supports_claims),
        vacuous=vacuous,
        blind_failure=blind_failure,
        class_games=games,
        context_blockers=context,
    )
    reasons = [*disqualifiers(case, analysis, skill, facts.readback_oracles), *games, *context]
    return facts._replace(blockers=tuple(reasons), effective_class=_effective(facts, reasons))


def _effective(facts: CaseEvidence, reasons: list[Disqualifier]) -> EvidenceClass:
    """The slot of ``facts``'s case with ``reasons`` not to count as live."""
    effective = effective_class(facts.case, facts.analysis, reasons)
    if facts.class_games and facts.declared_class not in LIVE_CLASSES:
        return FALLBACK
    return effective


def tree_context(fixture: Fixture, case: Case, fixture_dir: Path) -> OracleContext:
    """Where ``case``'s artifacts resolve in the tree as it is (its workspace input, if any)."""
    layout = layout_for(fixture_dir, fixture.skill_root)
    chosen = case.workspace or fixture.workspace
    if chosen is not None:
        root = layout.path(chosen.input)
        roots = {name: Path(value) for name, value in layout.bindings(root).items()}
        return OracleContext(root, root, roots=roots)
    roots = {name: Path(value) for name, value in layout.bindings().items()}
    return OracleContext(layout.base, layout.skill_tree, roots=roots)


def evidence_table(fixture: Fixture, fixture_dir: Path) -> dict[str, CaseEvidence]:
    """The facts of every case of ``fixture`` (living in ``fixture_dir``), by name, in order.

    Vacuity is read from the null trial judged on the tree as it is now. Of
    cases sharing a name (a load error of its own) the first is kept.
    """
    table: dict[str, CaseEvidence] = {}
    # Cases that run alike (the same cwd, workspace and env: usually all of them) share one
    # context, and cases with the same workspace one tree context: each is read once.
    contexts: dict[object, CommandContext] = {}
    trees: dict[object, OracleContext] = {}
    for case in fixture.cases:
        if case.name in table:
            continue
        chosen = case.workspace or fixture.workspace
        where = None if chosen is None else chosen.input
        key = (case.cwd, where, tuple(sorted(case.env.items())))
        ctx = contexts.get(key)
        if ctx is None:
            ctx = contexts[key] = case_context(fixture, case, fixture_dir)
        tree = trees.get(where)
        if tree is None:
            tree = trees[where] = tree_context(fixture, case, fixture_dir)
        failures = load_time_null_trial(case, tree)
        table[case.name] = case_evidence(
            case,
            analyze(case.command, ctx),
            fixture.skill,
            vacuous_checks(case, failures),
            fixture=fixture,
            context=tuple(env_injection(case, ctx)),
        )
    return table


def with_blockers(facts: CaseEvidence, extra: Iterable[Disqualifier]) -> CaseEvidence:
    """``facts`` with further reasons not to count as live (its effective class follows)."""
    known = {(item.code, item.reason) for item in facts.blockers}
    added = [item for item in extra if (item.code, item.reason) not in known]
    if not added:
        return facts
    reasons = [*facts.blockers, *added]
    return facts._replace(blockers=tuple(reasons), effective_class=_effective(facts, reasons))


def traced_evidence(facts: CaseEvidence, trials: Iterable[TrialReport]) -> CaseEvidence:
    """``facts`` with what the traces of the case's ``trials`` show (see :mod:`.traced`)."""
    return with_blockers(facts, trace_blockers(facts.readback_oracles, trials))


def fills_slot(entry: ClaimEvidence, evidence_class: str) -> bool:
    """Whether a supporting case, as its claim recorded it, fills ``evidence_class``'s slot.

    Run and merge judge claims from these records alike.
    """
    return not entry.ineligible and entry.effective_evidence_class == evidence_class
