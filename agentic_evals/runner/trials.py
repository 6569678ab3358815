"""Run one trial of a planned case and judge what it left behind."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agentic_evals import codes
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.outcome import trial_outcome
from agentic_evals.oracles.registry import evaluate as evaluate_oracles
from agentic_evals.redact import Redactor
from agentic_evals.reports.model import (
    Problem,
    StreamStats,
    TrialReport,
)
from agentic_evals.runner import workspace
from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.capture import CapturedStream
from agentic_evals.runner.environment import trial_environment
from agentic_evals.runner.hints import SEARCHED_BYTES, missing_dependency
from agentic_evals.runner.plan import CasePlan, TrialSettings
from agentic_evals.runner.process import ProcessResult, run_process
from agentic_evals.runner.reaper import Identity
from agentic_evals.runner.trace import ExecTrace, TraceOutcome

EXCERPT_CHARS = 10_000


def _stats(stream: CapturedStream) -> StreamStats:
    return StreamStats(
        total_bytes=stream.total_bytes, kept_bytes=stream.kept_bytes, truncated=stream.truncated
    )


def run_trial(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    cancel: Cancellation | None = None,
    preexisting: set[Identity] | None = None,
) -> TrialReport:
    """Run trial ``number`` (from 1) of the planned case and return its verdict.

    ``preexisting`` (the runner's children before a serial run) says that no
    other trial runs meanwhile, which makes orphan attribution exact. With a
    workspace the trial runs in its own fresh copy (deleted afterwards unless
    ``keep_workspaces``); when the copy cannot be made the trial FAILs with
    ``WORKSPACE_UNAVAILABLE`` and nothing is started.
    """
    trial_id = f"{plan.case_id}#{number}"
    if plan.workspace is None:
        return _run(plan, number, settings, _in_place(settings), cancel, preexisting)
    try:
        copy = _copy_workspace(plan.workspace, settings)
    except workspace.WorkspaceUnavailableError as error:
        return _unavailable(trial_id, str(error), plan.redactor)
    kept = settings.keep_workspaces
    with _workspace_kept_or_removed(copy, kept):
        before = workspace.snapshot(copy)
        run = _run(plan, number, settings, _WorkspaceContext(copy, before), cancel, preexisting)
    if kept:
        run = run.model_copy(update={"workspace_path": str(copy)})
    return run


def _in_place(settings: TrialSettings) -> OracleContext:
    """Where the oracles of a trial without a workspace read: the skill's tree."""
    layout = settings.layout
    return OracleContext(layout.base, layout.skill_tree, roots=_roots(settings, None))


def _roots(settings: TrialSettings, copy: Path | None) -> dict[str, Path]:
    """The directories artifact paths starting with a built-in placeholder are read in."""
    return {name: Path(value) for name, value in settings.layout.bindings(copy).items()}


@dataclass(frozen=True)
class _WorkspaceContext:
    """A trial's workspace copy and its snapshot taken before the trial."""

    root: Path
    before: workspace.Snapshot


def _copy_workspace(source: Path, settings: TrialSettings) -> Path:
    """A fresh copy of ``source``, which must lie in the skill's tree or the fixture's folder."""
    real = Path(os.path.realpath(source))
    layout = settings.layout
    allowed = (layout.skill_tree, layout.fixture_dir)
    if not any(real.is_relative_to(os.path.realpath(root)) for root in allowed):
        message = f"workspace input {str(source)!r} resolves outside {str(layout.skill_tree)!r}"
        raise workspace.WorkspaceUnavailableError(message)
    return workspace.create(real)


@contextmanager
def _workspace_kept_or_removed(copy: Path, keep: bool) -> Iterator[None]:
    try:
        yield
    finally:
        if not keep:
            workspace.remove(copy)


def _unavailable(trial_id: str, reason: str, redactor: Redactor) -> TrialReport:
    """A trial that could not get its workspace: FAIL, and no process was started."""
    message = redactor.redact(f"the trial's workspace could not be made: {reason}")
    empty = StreamStats(total_bytes=0, kept_bytes=0, truncated=False)
    return TrialReport(
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


def _run(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    context: OracleContext | _WorkspaceContext,
    cancel: Cancellation | None,
    preexisting: set[Identity] | None,
) -> TrialReport:
    """Run the process, then judge it against ``context``."""
    unjudged = _execute(plan, number, settings, context, cancel, preexisting)
    try:
        return unjudged.judge()
    finally:
        unjudged.close()


@dataclass(frozen=True)
class UnjudgedTrial:
    """A trial whose processes are all gone, with what it left, not judged yet."""

    plan: CasePlan
    number: int
    result: ProcessResult
    context: OracleContext
    traced: TraceOutcome
    command: tuple[list[str], Mapping[str, str]]
    """The trial's own argv and environment (before any tracer wrapped them)."""

    def judge(self) -> TrialReport:
        """Judge the trial; may be called again (after an interruption) until :meth:`close`."""
        trial_id = f"{self.plan.case_id}#{self.number}"
        report = _judge(self.plan, trial_id, self.result, self.context, self.traced)
        if report.outcome != "FAIL":
            return report
        argv, env = self.command
        tail = self.result.stderr.tail(SEARCHED_BYTES)
        hint = missing_dependency(argv, tail, self.result.start_error, env)
        if hint is None:
            return report
        hint = hint.model_copy(update={"message": self.plan.redactor.redact(hint.message)})
        # Second: the first problem stays the one that decided the trial.
        problems = [*report.problems[:1], hint, *report.problems[1:]]
        return report.model_copy(update={"problems": problems})

    def close(self) -> None:
        """Release the captured output."""
        self.result.close()


def judging_can_wait(plan: CasePlan) -> bool:
    """Whether judging the case's trials reads nothing but what the runner captured.

    Then a serial run may judge a trial while the next one is already running
    (see :func:`execute_trial`). Artifacts and workspaces are files the next
    trial could change, so their cases are judged at once.
    """
    return plan.workspace is None and not plan.case.expected.artifacts


def execute_trial(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    *,
    preexisting: set[Identity] | None,
    on_started: Callable[[], None] | None = None,
) -> UnjudgedTrial:
    """Run trial ``number`` of a case that :func:`judging_can_wait`, without judging it.

    Args:
        plan: The planned case.
        number: The trial number, from 1.
        settings: The run's settings.
        preexisting: As for :func:`run_trial`.
        on_started: Called once the trial's process runs (not when it cannot
            start): a serial run judges the previous trial there, on the
            runner's side, while this one's program loads and runs.
    """
    if not judging_can_wait(plan):
        raise ValueError(f"{plan.case_id}: its trials read files, judge them with run_trial")
    context = _in_place(settings)
    return _execute(plan, number, settings, context, None, preexisting, on_started)


def _execute(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    context: OracleContext | _WorkspaceContext,
    cancel: Cancellation | None,
    preexisting: set[Identity] | None,
    on_started: Callable[[], None] | None = None,
) -> UnjudgedTrial:
    """Run the process (in its workspace copy, if any); record the copy's changes."""
    case = plan.case
    copy = context.root if isinstance(context, _WorkspaceContext) else None
    argv, case_env, cwd = plan.trial_command(copy)
    env = trial_environment(case_env, {}, run_id=settings.run_id, case_name=case.name, trial=number)
    with ExecTrace.start(
        case.must_exercise, argv, env, cwd=cwd, executable=plan.executable
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
            on_started=on_started,
            watches=plan.watches(),
        )
        result, traced = trace.observe(result)
    if isinstance(context, _WorkspaceContext):
        try:
            changed = workspace.changes(context.before, workspace.snapshot(context.root))
        except BaseException:
            result.close()
            raise
        roots = _roots(settings, context.root)
        context = OracleContext(context.root, context.root, changed, roots)
    return UnjudgedTrial(plan, number, result, context, traced, (argv, env))


def _judge(
    plan: CasePlan,
    trial_id: str,
    result: ProcessResult,
    context: OracleContext,
    traced: TraceOutcome,
) -> TrialReport:
    case, redactor = plan.case, plan.redactor
    oracles = None
    if result.start_error is None:
        oracles = evaluate_oracles(case, result, context)
    outcome, problems = trial_outcome(case, result, oracles, extra_problems=traced.problems)
    return TrialReport(
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
