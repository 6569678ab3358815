"""Assemble the report model from what the trials left behind (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentic_evals import __version__, clock, codes
from agentic_evals.claims.models import Tier
from agentic_evals.claims.qualification import LiveQualification, qualify_cases
from agentic_evals.claims.readiness import capability_readiness
from agentic_evals.claims.tiers import DEFAULT_RUN_TIER, apply_system_test, qualification_report
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.metrics import build_metrics
from agentic_evals.provenance import oracle_sha256, repo_info, sha256_bytes, test_source_sha256
from agentic_evals.redact import redact_argv
from agentic_evals.reports.model import (
    CASE_OUTCOMES,
    CaseReport,
    Problem,
    Report,
    RunnerInfo,
    TrialReport,
)
from agentic_evals.skill_files import SkillFiles
from agentic_evals.verdicts import case_outcome, case_problems, case_readiness, worse

if TYPE_CHECKING:
    from agentic_evals.contract.load import LoadResult
    from agentic_evals.runner.trials import TrialRun


@dataclass
class CaseRun:
    """A selected case and the trials that ran so far."""

    index: int
    case: Case
    raw: dict[str, Any]
    trials: list[TrialRun] = field(default_factory=list)

    def case_id(self, fixture: Fixture) -> str:
        """Return the stable id ``<skill>::<name>``."""
        return f"{fixture.skill}::{self.case.name}"


def _outcome_counts(cases: list[CaseReport]) -> dict[str, int]:
    """Cases per outcome, every outcome present (zero when none)."""
    counted = Counter(c.outcome for c in cases)
    return {outcome: counted.get(outcome, 0) for outcome in CASE_OUTCOMES}


def _case_report(
    run: CaseRun, fixture: Fixture, qualified: LiveQualification, files: SkillFiles
) -> CaseReport:
    trials: list[TrialReport] = [t.report for t in run.trials]
    problems = case_problems([t.problems for t in trials])
    # Every trial ran unless the run was interrupted during (or before) this case.
    if len(run.trials) == fixture.trials:
        outcome, flaky = case_outcome([t.outcome for t in trials])
    else:
        outcome, flaky = "NOT_TESTED", False
        problems.append(
            Problem(
                code=codes.INTERRUPTED, message="the run was interrupted before this case ended"
            )
        )
    passed = sum(1 for t in trials if t.outcome == "PASS")
    case = run.case
    return CaseReport(
        case_id=run.case_id(fixture),
        name=case.name,
        type=case.type,
        required=case.required,
        outcome=outcome,
        flaky=flaky,
        problems=problems,
        argv=redact_argv(case.command),
        declared_evidence_class=qualified.declared,
        effective_evidence_class=qualified.effective,
        live_qualified=qualified.live_qualified,
        evidence_disqualifiers=list(qualified.disqualifiers),
        supports_claims=list(case.supports_claims),
        seams=list(case.seams),
        test_source_sha256=test_source_sha256(run.raw),
        oracle_sha256=oracle_sha256(run.raw),
        passed_trials=passed,
        total_trials=len(trials),
        pass_rate=passed / len(trials) if trials else None,
        trials=trials,
        expected=run.raw.get("expected"),
        must_exercise=list(case.must_exercise),
        blocked_when_stdout_contains=list(case.blocked_when_stdout_contains),
        infra_blocked_when=list(case.infra_blocked_when),
        skill_files=files.of(case),
    )


def _judged_cases(
    fixture: Fixture, loaded: LoadResult, runs: list[CaseRun], tier: Tier, require: bool
) -> list[tuple[CaseReport, Case]]:
    """Each run's case report (live-qualified, held to the system-test rule) with its case."""
    fixture_dir = loaded.path.resolve().parent
    qualified = qualify_cases(fixture, fixture_dir)
    files = SkillFiles(fixture, fixture_dir)
    return [
        (
            apply_system_test(
                _case_report(run, fixture, qualified[run.case.name], files),
                run.case,
                tier,
                require=require,
            ),
            run.case,
        )
        for run in runs
    ]


def build_report(
    loaded: LoadResult,
    runs: list[CaseRun],
    *,
    run_id: str,
    duration_ms: int,
    focused: list[str] | None,
    interrupted_by: int | None,
    tier: Tier = DEFAULT_RUN_TIER,
    require_system_test: bool = False,
) -> Report:
    """Return the report of a run over ``runs`` at qualification ``tier`` (SPEC 6).

    The gate ``readiness`` is the worse of case and (with claims) claim readiness.
    """
    import signal

    fixture = loaded.fixture
    assert fixture is not None
    pairs = _judged_cases(fixture, loaded, runs, tier, require_system_test)
    cases = [report for report, _ in pairs]
    readiness = case_readiness(cases)
    capability = capability_readiness(fixture, pairs, today=clock.today(), now=clock.utc_now())
    gate = readiness if capability is None else worse(readiness, capability.aggregate_readiness)
    coverage = {
        claim.id: [c.name for c in cases if claim.id in c.supports_claims]
        for claim in fixture.capability_claims
    }
    return Report(
        source=str(loaded.path),
        skill=fixture.skill,
        eval_kind=fixture.eval_kind,
        run_id=run_id,
        fixture_sha256=sha256_bytes(loaded.source_bytes),
        repo=repo_info(loaded.path.resolve().parent),
        runner=RunnerInfo(version=__version__),
        live=fixture.live,
        mocked=fixture.mocked,
        proof_scope=fixture.proof_scope,
        claims=fixture.claims.model_dump(exclude_unset=True) if fixture.claims else None,
        what_was_exercised=fixture.what_was_exercised,
        what_remains_unverified=fixture.what_remains_unverified,
        readiness=gate,
        case_readiness=readiness,
        capability_readiness=capability,
        claims_coverage=coverage,
        focused_cases=focused,
        interrupted=signal.Signals(interrupted_by).name if interrupted_by else None,
        qualification=qualification_report(pairs, tier, require=require_system_test),
        generated_at=clock.utc_now().isoformat(timespec="seconds"),
        duration_ms=duration_ms,
        trials_per_case=fixture.trials,
        case_count=len(cases),
        required_case_count=sum(1 for c in cases if c.required),
        outcome_counts=_outcome_counts(cases),
        trial_count=sum(c.total_trials for c in cases),
        warnings=list(loaded.warnings),
        metrics=build_metrics(cases, trials_per_case=fixture.trials),
        cases=cases,
    )
