"""The report of a run: each case judged from its trials, then the one derivation (pure)."""

from __future__ import annotations

import signal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from agentic_evals import __version__, clock
from agentic_evals.commands.skill_files import SkillFiles
from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import DEFAULT_RUN_TIER, QualificationTier
from agentic_evals.evidence.anti_slop import real_world_problem
from agentic_evals.evidence.compliance import claims_fresh_inputs
from agentic_evals.evidence.facts import CaseEvidence, evidence_table, traced_evidence
from agentic_evals.evidence.observed import observe, vacuous_pointers
from agentic_evals.judge.capability import run_bases
from agentic_evals.judge.cases import tally
from agentic_evals.judge.gate import Scope, derive
from agentic_evals.judge.provenance import (
    case_source_sha256,
    oracle_sha256,
    repo_info,
    sha256_bytes,
    trial_settings_sha256,
)
from agentic_evals.judge.shard import Shard
from agentic_evals.judge.tiers import apply_system_test, qualification_report
from agentic_evals.redact import redact_argv
from agentic_evals.reports.model import CaseReport, FixtureCase, Report, RunnerInfo
from agentic_evals.runner.case_run import CaseRun

if TYPE_CHECKING:
    from agentic_evals.contract.load import LoadResult


class CaseHashes(NamedTuple):
    """What identifies a case's trials: its two hashes and the skill files its command runs."""

    test_source_sha256: str
    oracle_sha256: str
    skill_files: dict[str, str]


def case_hashes(raw: Mapping[str, Any], facts: CaseEvidence, files: SkillFiles) -> CaseHashes:
    """The identity of a case as it is now (``raw``: the case as the document wrote it)."""
    skill_files = files.of(facts.analysis)
    return CaseHashes(case_source_sha256(raw, skill_files), oracle_sha256(raw), skill_files)


def _raw_cases(loaded: LoadResult) -> list[Mapping[str, Any]]:
    document = loaded.document
    assert isinstance(document, dict) and isinstance(document.get("cases"), list)
    return list(document["cases"])


def fixture_cases(
    loaded: LoadResult,
    table: Mapping[str, CaseEvidence] | None = None,
    hashes: Mapping[str, CaseHashes] | None = None,
) -> list[FixtureCase]:
    """Every case of the fixture with the hashes its case record would carry, in order.

    ``table``: the fixture's :func:`evidence_table`, and ``hashes`` its
    :func:`fixture_hashes`, when the caller already has them.
    """
    if hashes is None:
        hashes = fixture_hashes(loaded, table)
    fixture = loaded.model
    assert fixture is not None
    return [
        FixtureCase(
            name=case.name,
            test_source_sha256=hashes[case.name].test_source_sha256,
            oracle_sha256=hashes[case.name].oracle_sha256,
        )
        for case in fixture.cases
    ]


def fixture_hashes(
    loaded: LoadResult, table: Mapping[str, CaseEvidence] | None = None
) -> dict[str, CaseHashes]:
    """The identity of every case of the fixture as it is now, by name (each read once)."""
    fixture = loaded.model
    assert fixture is not None
    fixture_dir = loaded.path.resolve().parent
    if table is None:
        table = evidence_table(fixture, fixture_dir)
    files = SkillFiles(layout_for(fixture_dir, fixture.skill_root).skill_tree)
    found: dict[str, CaseHashes] = {}
    for case, raw in zip(fixture.cases, _raw_cases(loaded), strict=True):
        if case.name not in found:
            found[case.name] = case_hashes(raw, table[case.name], files)
    return found


def current_hashes(loaded: LoadResult, runs: list[CaseRun]) -> dict[str, CaseHashes]:
    """The identity of the case of each of ``runs`` as it is now, by case name."""
    hashes = fixture_hashes(loaded)
    return {run.case.name: hashes[run.case.name] for run in runs}


def case_report(
    run: CaseRun, fixture: Fixture, facts: CaseEvidence, hashes: CaseHashes
) -> CaseReport:
    """The record of one case: its trials reduced, and what its facts say it proved.

    ``facts`` are the case's facts with what its trials observed
    (:func:`agentic_evals.evidence.observed.observe`).

    It also carries what the case declares (its oracles, markers and
    ``must_exercise``) and the skill files its command runs (``hashes``), for
    ``compare``.
    """
    trials = list(run.trials)
    case = run.case
    sampled = claims_fresh_inputs(fixture, case, facts.analysis)
    counted = tally(trials, fixture.trials, claims_sampling=sampled)
    return CaseReport(
        case_id=run.case_id(fixture),
        name=case.name,
        type=case.type,
        required=case.required,
        outcome=counted.outcome,
        flaky=counted.flaky,
        problems=counted.problems,
        argv=redact_argv(case.command),
        declared_evidence_class=facts.declared_class,
        effective_evidence_class=facts.effective_class,
        live_qualified=facts.live_qualified,
        evidence_disqualifiers=facts.disqualifiers,
        supports_claims=list(case.supports_claims),
        seams=list(case.seams),
        test_source_sha256=hashes.test_source_sha256,
        oracle_sha256=hashes.oracle_sha256,
        passed_trials=counted.passed_trials,
        total_trials=counted.total_trials,
        pass_rate=counted.pass_rate,
        trials=trials,
        expected=run.raw.get("expected"),
        must_exercise=list(case.must_exercise),
        blocked_when_stdout_contains=list(case.blocked_when_stdout_contains),
        infra_blocked_when=list(case.infra_blocked_when),
        skill_files=hashes.skill_files,
        real_world=case.real_world,
        vacuous_checks=vacuous_pointers(facts, run.index),
        weak=facts.weak,
        reason_problem=facts.reason_problem,
        live_path_problem=real_world_problem(facts, trials) if case.real_world else None,
        claims_sampling=sampled,
    )


def build_report(
    loaded: LoadResult,
    runs: list[CaseRun],
    *,
    run_id: str,
    duration_ms: int,
    focused: list[str] | None,
    interrupted_by: int | None,
    tier: QualificationTier = DEFAULT_RUN_TIER,
    require_system_test: bool = False,
    shard: Shard | None = None,
) -> Report:
    """Return the report of a run over ``runs`` at qualification ``tier`` (SPEC 6)."""
    fixture = loaded.model
    assert fixture is not None and isinstance(loaded.document, dict)
    fixture_dir = loaded.path.resolve().parent
    table = evidence_table(fixture, fixture_dir)
    hashes = fixture_hashes(loaded, table)
    # What the trials observed (null trials), then what their traces show.
    observed = {
        run.case.name: traced_evidence(
            observe(table[run.case.name], fixture.skill, run.trials), run.trials
        )
        for run in runs
    }
    pairs = [
        (
            apply_system_test(
                case_report(run, fixture, observed[run.case.name], hashes[run.case.name]),
                run.case,
                tier,
                require=require_system_test,
            ),
            observed[run.case.name],
        )
        for run in runs
    ]
    cases = [report for report, _ in pairs]
    bases = run_bases(fixture, pairs, today=clock.today(), now=clock.utc_now())
    scope = Scope(fixture.eval_kind, focused is not None, shard is not None)
    return Report(
        source=str(loaded.path),
        skill=fixture.skill,
        eval_kind=fixture.eval_kind,
        run_id=run_id,
        fixture_sha256=sha256_bytes(loaded.source),
        trial_settings_sha256=trial_settings_sha256(loaded.document),
        repo=repo_info(loaded.path.resolve().parent),
        runner=RunnerInfo(version=__version__),
        live=fixture.live,
        mocked=fixture.mocked,
        proof_scope=fixture.proof_scope,
        claims=fixture.claims.model_dump(exclude_unset=True) if fixture.claims else None,
        what_was_exercised=fixture.what_was_exercised,
        what_remains_unverified=fixture.what_remains_unverified,
        focused_cases=focused,
        shard=None if shard is None else shard.info(),
        fixture_cases=fixture_cases(loaded, table, hashes),
        interrupted=signal.Signals(interrupted_by).name if interrupted_by else None,
        qualification=qualification_report(
            [(report, facts.case) for report, facts in pairs], tier, require=require_system_test
        ),
        generated_at=clock.utc_now().isoformat(timespec="seconds"),
        duration_ms=duration_ms,
        trials_per_case=fixture.trials,
        warnings=list(loaded.warnings),
        cases=cases,
        **derive(cases, bases, trials_per_case=fixture.trials, scope=scope)._asdict(),
    )
