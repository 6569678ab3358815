"""Assemble the report model from what the trials left behind (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentic_evals import __version__, clock, codes
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
from agentic_evals.verdicts import case_outcome, case_problems, case_readiness

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
    finished: bool = False

    def case_id(self, fixture: Fixture) -> str:
        """Return the stable id ``<skill>::<name>``."""
        return f"{fixture.skill}::{self.case.name}"


def _outcome_counts(cases: list[CaseReport]) -> dict[str, int]:
    """Cases per outcome, every outcome present (zero when none)."""
    counted = Counter(c.outcome for c in cases)
    return {outcome: counted.get(outcome, 0) for outcome in CASE_OUTCOMES}


def _case_report(run: CaseRun, fixture: Fixture) -> CaseReport:
    trials: list[TrialReport] = [t.report for t in run.trials]
    problems = case_problems([t.problems for t in trials])
    if run.finished:
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
    declared = case.evidence_class or "live_e2e"
    return CaseReport(
        case_id=run.case_id(fixture),
        name=case.name,
        type=case.type,
        required=case.required,
        outcome=outcome,
        flaky=flaky,
        problems=problems,
        argv=redact_argv(case.command),
        declared_evidence_class=declared,
        effective_evidence_class=declared,
        live_qualified=False,
        evidence_disqualifiers=[],
        supports_claims=list(case.supports_claims),
        seams=list(case.seams),
        test_source_sha256=test_source_sha256(run.raw),
        oracle_sha256=oracle_sha256(run.raw),
        passed_trials=passed,
        total_trials=len(trials),
        pass_rate=passed / len(trials) if trials else None,
        trials=trials,
    )


def build_report(
    loaded: LoadResult,
    runs: list[CaseRun],
    *,
    run_id: str,
    duration_ms: int,
    focused: list[str] | None,
    interrupted_by: int | None,
) -> Report:
    """Return the report of a run over ``runs``."""
    import signal

    fixture = loaded.fixture
    assert fixture is not None
    cases = [_case_report(run, fixture) for run in runs]
    readiness = case_readiness(cases)
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
        readiness=readiness,
        case_readiness=readiness,
        capability_readiness=None,
        claims_coverage=coverage,
        focused_cases=focused,
        interrupted=signal.Signals(interrupted_by).name if interrupted_by else None,
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
