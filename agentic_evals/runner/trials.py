"""Run one trial of a case and judge what it left behind."""

from __future__ import annotations

import os
import shutil
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
from agentic_evals.runner.reaper import Identity
from agentic_evals.runner.trace import ExecTrace, TraceOutcome
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
    trace_method: str | None = None
    """How execs were traced for ``must_exercise`` (``strace``, or ``unavailable``);
    None when the case declares none."""
    traced_execs: int | None = None
    """Successful execs traced after the command's own; None when nothing was traced."""


def _stats(stream: CapturedStream) -> StreamStats:
    return StreamStats(
        total_bytes=stream.total_bytes, kept_bytes=stream.kept_bytes, truncated=stream.truncated
    )


@dataclass(frozen=True)
class CasePlan:
    """What every trial of one case shares, worked out once per case."""

    case: Case
    case_id: str
    cwd: Path
    env: Mapping[str, str]
    """The runner's environment plus the case's; markers are added per trial."""
    redactor: Redactor
    """Redacts the report; the markers differ per trial but are not secrets."""
    executable: str | None
    """The program found on ``PATH``, or None to let the spawn search."""


def plan_case(case: Case, case_id: str, settings: TrialSettings) -> CasePlan:
    """Return the shared part of every trial of ``case``."""
    env = {**settings.base_env, **case.env}
    cwd = trial_cwd(settings.fixture_dir, case.cwd)
    return CasePlan(case, case_id, cwd, env, Redactor(env), find_program(case.command[0], env))


def find_program(program: str, env: Mapping[str, str]) -> str | None:
    """Resolve a bare program name on the trial's ``PATH``, as the spawn would.

    Only when every ``PATH`` entry is absolute: a relative entry depends on
    the trial's working directory, so the spawn must search itself. A path
    with a slash, or a program not found, is left to the spawn too (it then
    reports the error in its own words).
    """
    if "/" in program:
        return None
    entries = env.get("PATH", os.defpath).split(os.pathsep)
    if not all(os.path.isabs(entry) for entry in entries):
        return None
    return shutil.which(program, path=os.pathsep.join(entries))


def run_trial(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    cancel: Cancellation | None = None,
    preexisting: set[Identity] | None = None,
) -> TrialRun:
    """Run trial ``number`` (from 1) of the planned case and return its verdict.

    ``preexisting`` (the runner's children before a serial run) says that no
    other trial runs meanwhile, which makes orphan attribution exact.
    """
    case = plan.case
    env = trial_environment(plan.env, {}, run_id=settings.run_id, case_name=case.name, trial=number)
    with ExecTrace.start(
        case.must_exercise, case.command, env, cwd=plan.cwd, executable=plan.executable
    ) as trace:
        result = run_process(
            trace.argv,
            cwd=plan.cwd,
            env=trace.env,
            timeout=case.timeout_seconds or settings.default_timeout,
            grace=settings.grace_seconds,
            stream_cap=settings.stream_cap,
            cancel=cancel,
            exclusive=preexisting is not None,
            preexisting=preexisting,
            executable=trace.executable,
            marker_env=trace.marker_env,
        )
        result, traced = trace.observe(result)
    try:
        return _judge(case, f"{plan.case_id}#{number}", result, settings, plan.redactor, traced)
    finally:
        result.stdout.close()
        result.stderr.close()


def _judge(
    case: Case,
    trial_id: str,
    result: ProcessResult,
    settings: TrialSettings,
    redactor: Redactor,
    traced: TraceOutcome,
) -> TrialRun:
    oracles = None
    if result.start_error is None:
        context = OracleContext(artifact_root=settings.fixture_dir, boundary=settings.boundary)
        oracles = evaluate_oracles(case, result, context)
    outcome, problems = trial_outcome(case, result, oracles, extra_problems=traced.problems)
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
        trace_method=traced.method,
        traced_execs=traced.execs,
    )
    return TrialRun(report, oracles, trace_method=traced.method, traced_execs=traced.execs)
