"""Run one trial of a case and judge what it left behind."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agentic_evals import codes
from agentic_evals.contract.models import Case, Workspace
from agentic_evals.oracles.base import OracleContext, OracleResult
from agentic_evals.oracles.registry import evaluate as evaluate_oracles
from agentic_evals.redact import Redactor
from agentic_evals.reports.model import (
    Problem,
    StreamStats,
    TrialReport,
    WorkspaceChangesReport,
)
from agentic_evals.runner import workspace
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
    workspace: Workspace | None = None
    """The fixture-level workspace; a case's own workspace wins over it."""
    keep_workspaces: bool = False
    """Keep each trial's workspace copy instead of deleting it (its path goes in the report)."""


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
    """The working directory; without a workspace only (see ``workspace``)."""
    env: Mapping[str, str]
    """The runner's environment plus the case's; markers are added per trial."""
    redactor: Redactor
    """Redacts the report; the markers differ per trial but are not secrets."""
    executable: str | None
    """The program found on ``PATH``, or None to let the spawn search."""
    workspace: Path | None = None
    """The directory each trial copies and runs in (``cwd`` then applies inside the
    copy); None runs the trials in ``cwd`` itself."""


def plan_case(case: Case, case_id: str, settings: TrialSettings) -> CasePlan:
    """Return the shared part of every trial of ``case``."""
    env = {**settings.base_env, **case.env}
    cwd = trial_cwd(settings.fixture_dir, case.cwd)
    chosen = case.workspace or settings.workspace
    source = settings.fixture_dir / chosen.input if chosen else None
    executable = find_program(case.command[0], env)
    return CasePlan(case, case_id, cwd, env, Redactor(env), executable, source)


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
    other trial runs meanwhile, which makes orphan attribution exact. With a
    workspace the trial runs in its own fresh copy (deleted afterwards unless
    ``keep_workspaces``); when the copy cannot be made the trial FAILs with
    ``WORKSPACE_UNAVAILABLE`` and nothing is started.
    """
    trial_id = f"{plan.case_id}#{number}"
    if plan.workspace is None:
        shared = OracleContext(artifact_root=settings.fixture_dir, boundary=settings.boundary)
        return _run(plan, number, settings, plan.cwd, shared, cancel, preexisting)
    try:
        copy = _copy_workspace(plan.workspace, settings.boundary)
    except workspace.WorkspaceUnavailableError as error:
        return _unavailable(trial_id, str(error), plan.redactor)
    kept = settings.keep_workspaces
    with _workspace_kept_or_removed(copy, kept):
        before = workspace.snapshot(copy)
        cwd = trial_cwd(copy, plan.case.cwd)
        run = _run(
            plan, number, settings, cwd, _WorkspaceContext(copy, before), cancel, preexisting
        )
    if kept:
        report = run.report.model_copy(update={"workspace_path": str(copy)})
        run = TrialRun(report, run.oracles, run.trace_method, run.traced_execs)
    return run


@dataclass(frozen=True)
class _WorkspaceContext:
    """A trial's workspace copy and its snapshot taken before the trial."""

    root: Path
    before: workspace.Snapshot


def _copy_workspace(source: Path, boundary: Path) -> Path:
    real = Path(os.path.realpath(source))
    if not real.is_relative_to(os.path.realpath(boundary)):
        message = f"workspace input {str(source)!r} resolves outside {str(boundary)!r}"
        raise workspace.WorkspaceUnavailableError(message)
    return workspace.create(real)


@contextmanager
def _workspace_kept_or_removed(copy: Path, keep: bool) -> Iterator[None]:
    try:
        yield
    finally:
        if not keep:
            workspace.remove(copy)


def _unavailable(trial_id: str, reason: str, redactor: Redactor) -> TrialRun:
    """A trial that could not get its workspace: FAIL, and no process was started."""
    message = redactor.redact(f"the trial's workspace could not be made: {reason}")
    empty = StreamStats(total_bytes=0, kept_bytes=0, truncated=False)
    report = TrialReport(
        trial_id=trial_id,
        outcome="FAIL",
        problems=[Problem(code=codes.WORKSPACE_UNAVAILABLE, message=message)],
        exit_code=None,
        timed_out=False,
        duration_ms=0,
        stdout="",
        stderr="",
        truncated=False,
        stdout_stats=empty,
        stderr_stats=empty,
        orphan_pids_after_teardown=[],
        artifact_hashes={},
    )
    return TrialRun(report, None)


def _run(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    cwd: Path,
    context: OracleContext | _WorkspaceContext,
    cancel: Cancellation | None,
    preexisting: set[Identity] | None,
) -> TrialRun:
    """Run the process in ``cwd``, then judge it against ``context``."""
    case = plan.case
    env = trial_environment(plan.env, {}, run_id=settings.run_id, case_name=case.name, trial=number)
    with ExecTrace.start(
        case.must_exercise, case.command, env, cwd=cwd, executable=plan.executable
    ) as trace:
        result = run_process(
            trace.argv,
            cwd=cwd,
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
    changed: WorkspaceChangesReport | None = None
    if isinstance(context, _WorkspaceContext):
        changed = workspace.changes(context.before, workspace.snapshot(context.root))
        context = OracleContext(context.root, context.root, workspace_changes=changed)
    try:
        return _judge(case, f"{plan.case_id}#{number}", result, context, plan.redactor, traced)
    finally:
        result.stdout.close()
        result.stderr.close()


def _judge(
    case: Case,
    trial_id: str,
    result: ProcessResult,
    context: OracleContext,
    redactor: Redactor,
    traced: TraceOutcome,
) -> TrialRun:
    oracles = None
    if result.start_error is None:
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
        workspace_changes=context.workspace_changes,
    )
    return TrialRun(report, oracles, trace_method=traced.method, traced_execs=traced.execs)
