"""Run one trial of a case and judge what it left behind."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleContext, OracleResult
from agentic_evals.oracles.registry import evaluate as evaluate_oracles
from agentic_evals.redact import Redactor
from agentic_evals.reports.model import StreamStats, TrialReport
from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.capture import CapturedStream
from agentic_evals.runner.environment import trial_cwd, trial_environment
from agentic_evals.runner.process import ProcessResult, run_process
from agentic_evals.verdicts import trial_outcome

EXCERPT_CHARS = 10_000


@dataclass(frozen=True)
class TrialSettings:
    """Everything a trial needs besides its case."""

    run_id: str
    fixture_dir: Path
    boundary: Path
    base_env: Mapping[str, str]
    default_timeout: float
    grace_seconds: float
    stream_cap: int


@dataclass(frozen=True)
class TrialRun:
    """A finished trial: its report and what the oracles found."""

    report: TrialReport
    oracles: OracleResult | None


def _stats(stream: CapturedStream) -> StreamStats:
    return StreamStats(
        total_bytes=stream.total_bytes, kept_bytes=stream.kept_bytes, truncated=stream.truncated
    )


def case_redactor(case: Case, settings: TrialSettings) -> Redactor:
    """Return the redactor for every trial of ``case``.

    Built once per case: the trial environments differ only in the run
    markers, which are not secrets.
    """
    return Redactor({**settings.base_env, **case.env})


def run_trial(
    case: Case,
    case_id: str,
    number: int,
    settings: TrialSettings,
    redactor: Redactor | None = None,
    cancel: Cancellation | None = None,
    exclusive: bool = False,
) -> TrialRun:
    """Run trial ``number`` (from 1) of ``case`` and return its verdict."""
    env = trial_environment(
        settings.base_env, case.env, run_id=settings.run_id, case_name=case.name, trial=number
    )
    result = run_process(
        case.command,
        cwd=trial_cwd(settings.fixture_dir, case.cwd),
        env=env,
        timeout=case.timeout_seconds or settings.default_timeout,
        grace=settings.grace_seconds,
        stream_cap=settings.stream_cap,
        cancel=cancel,
        exclusive=exclusive,
    )
    try:
        redactor = redactor or case_redactor(case, settings)
        return _judge(case, f"{case_id}#{number}", result, settings, redactor)
    finally:
        result.stdout.close()
        result.stderr.close()


def _judge(
    case: Case, trial_id: str, result: ProcessResult, settings: TrialSettings, redactor: Redactor
) -> TrialRun:
    oracles = None
    if result.start_error is None:
        context = OracleContext(artifact_root=settings.fixture_dir, boundary=settings.boundary)
        oracles = evaluate_oracles(case, result, context)
    outcome, problems = trial_outcome(case, result, oracles)
    report = TrialReport(
        trial_id=trial_id,
        outcome=outcome,
        problems=[p.model_copy(update={"message": redactor.redact(p.message)}) for p in problems],
        exit_code=result.exit_code,
        term_signal=result.term_signal,
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
        stdout=redactor.redact(result.stdout.excerpt(EXCERPT_CHARS)),
        stderr=redactor.redact(result.stderr.excerpt(EXCERPT_CHARS)),
        truncated=result.stdout.truncated or result.stderr.truncated,
        stdout_stats=_stats(result.stdout),
        stderr_stats=_stats(result.stderr),
        orphan_pids_after_teardown=list(result.orphan_pids),
        artifact_hashes=dict(oracles.artifact_hashes) if oracles else {},
    )
    return TrialRun(report=report, oracles=oracles)
