"""Run one trial of a planned case and judge what it left behind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from agentic_evals import codes
from agentic_evals.contract.placeholders import path_root
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.null_trial import null_trial_before
from agentic_evals.reports.model import (
    Problem,
    StreamStats,
    TrialReport,
)
from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.environment import trial_environment
from agentic_evals.runner.frame import TrialFrame, open_frame
from agentic_evals.runner.isolation.run import ViewUnavailableError
from agentic_evals.runner.matching import StreamWatch
from agentic_evals.runner.plan import CasePlan, TrialSettings
from agentic_evals.runner.process import end_process
from agentic_evals.runner.process_record import EndedProcess
from agentic_evals.runner.reaper import Identity
from agentic_evals.runner.trace import ExecTrace, TraceOutcome
from agentic_evals.runner.trace_files import FileTracing, stopping, traced_case
from agentic_evals.runner.verdict import UnjudgedTrial, kept_in


def run_trial(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    cancel: Cancellation | None = None,
    preexisting: set[Identity] | None = None,
) -> TrialReport:
    """Run trial ``number`` (from 1) of the planned case and return its verdict.

    ``preexisting`` (the runner's children before a serial run) says that no
    other trial runs meanwhile, which makes orphan attribution exact. The
    trial runs and is judged in its own view (:mod:`agentic_evals.runner.frame`),
    released afterwards (its changes kept with ``keep_workspaces``); when the
    view cannot be made the trial FAILs (``WORKSPACE_UNAVAILABLE``,
    ``ISOLATION_UNAVAILABLE``) and nothing is started.
    """
    try:
        frame = open_frame(plan, settings)
    except ViewUnavailableError as error:
        return _unavailable(plan, number, error)
    try:
        unjudged = _execute(plan, number, settings, frame, cancel, preexisting)
        try:
            report = unjudged.judge()
        finally:
            unjudged.close()
    finally:
        kept = frame.close()
    return kept_in(report, kept)


def _unavailable(plan: CasePlan, number: int, error: ViewUnavailableError) -> TrialReport:
    """A trial that could not get its view: FAIL, and no process was started."""
    what = "workspace" if error.code == codes.WORKSPACE_UNAVAILABLE else "private view"
    message = plan.redactor.redact(f"the trial's {what} could not be made: {error}")
    empty = StreamStats(total_bytes=0, kept_bytes=0, truncated=False)
    return TrialReport(
        trial_id=f"{plan.case_id}#{number}",
        outcome="FAIL",
        problems=[Problem(code=error.code, message=message)],
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


def judging_can_wait(plan: CasePlan) -> bool:
    """Whether judging the case's trials reads nothing but what the runner captured.

    Then a serial run may judge a trial while the next one is already running
    (see :func:`execute_trial`). Artifacts and workspaces are files the next
    trial could change, so their cases are judged at once.
    """
    return plan.workspace is None and not plan.case.expected.artifacts


@dataclass(frozen=True)
class TrialCommand:
    """What one trial runs, made before its view when the case has no workspace.

    A serial run makes the next trial's command while the current trial runs
    (:mod:`agentic_evals.runner.serial`), so that between one trial's end
    and the next one's spawn only its view, its containment and the spawn are
    left to do.
    """

    plan: CasePlan
    number: int
    argv: list[str]
    """The case's own argv, placeholders resolved."""
    env: dict[str, str]
    """The trial's environment, its markers included."""
    cwd: Path
    boundary: Path
    """The directory ``cwd`` must resolve inside (``AE-PATH-ESCAPE``)."""
    watches: tuple[StreamWatch, StreamWatch]
    """What its stdout and stderr are watched for (fresh for every trial)."""
    trace: ExecTrace | None
    """Its exec trace, made here when it traces nothing; else made just before the spawn."""


def trial_command(
    plan: CasePlan, number: int, settings: TrialSettings, copy: Path | None = None
) -> TrialCommand:
    """The command of trial ``number`` of ``plan`` (in the workspace ``copy``, if any)."""
    case = plan.case
    case_argv, case_env, cwd = plan.trial_command(copy)
    env = trial_environment(case_env, {}, run_id=settings.run_id, case_name=case.name, trial=number)
    trace = None
    if not case.must_exercise and not traced_case(case):
        executable, root = plan.executable, settings.real_tree
        trace = ExecTrace.start((), case_argv, env, cwd=cwd, executable=executable, root=root)
    boundary = _cwd_boundary(plan, settings, copy)
    return TrialCommand(plan, number, case_argv, env, cwd, boundary, plan.watches(), trace)


def execute_trial(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    *,
    preexisting: set[Identity] | None,
    on_started: Callable[[], None] | None = None,
    command: TrialCommand | None = None,
    poll_seconds: float = 0.0,
) -> UnjudgedTrial:
    """Run trial ``number`` of a case that :func:`judging_can_wait`, without judging it.

    Its view is released before this returns: judging reads only what was
    captured and recorded.

    Args:
        plan: The planned case.
        number: The trial number, from 1.
        settings: The run's settings.
        preexisting: As for :func:`run_trial`.
        on_started: Called once the trial's process runs (not when it cannot
            start): a serial run judges the previous trial there, on the
            runner's side, while this one's program loads and runs.
        command: The trial's command, made ahead (:func:`trial_command`).
        poll_seconds: How long after the spawn an untraced trial's exit is
            polled for before the runner sleeps (:mod:`agentic_evals.runner.polling`).
    """
    if not judging_can_wait(plan):
        raise ValueError(f"{plan.case_id}: its trials read files, judge them with run_trial")
    try:
        frame = open_frame(plan, settings)
    except ViewUnavailableError as error:
        context = OracleContext(settings.layout.base, settings.layout.skill_tree)
        return UnjudgedTrial(plan, number, None, context, verdict=_unavailable(plan, number, error))
    try:
        trial = _execute(
            plan, number, settings, frame, None, preexisting, on_started, command, poll_seconds
        )
    finally:
        kept = frame.close()
    trial.kept = kept
    return trial


def _execute(
    plan: CasePlan,
    number: int,
    settings: TrialSettings,
    frame: TrialFrame,
    cancel: Cancellation | None,
    preexisting: set[Identity] | None,
    on_started: Callable[[], None] | None = None,
    command: TrialCommand | None = None,
    poll_seconds: float = 0.0,
) -> UnjudgedTrial:
    """Run the process in the trial's frame; record what it changed and exceeded."""
    case, view, contained = plan.case, frame.view, frame.containment
    # A case with a workspace runs in the view's own directory; the tree's view is the tree's
    # own path, where the placeholders already point (its command could be made ahead).
    copy = view.context.artifact_root if plan.workspace is not None else None
    if command is None or copy is not None:
        command = trial_command(plan, number, settings, copy)
    cwd, env = command.cwd, command.env
    # The shared tree has no pre-trial state to read afterwards: judge its null trial now.
    null_before = null_trial_before(case, view.context)
    tree = settings.real_tree
    tracing = FileTracing.for_trial(
        case, tree, view.mode, view.context.artifact_root, cwd, settings.stub_copies
    )
    strace = tracing.strace if tracing is not None else None
    trace = command.trace
    if trace is None:
        trace = ExecTrace.start(
            case.must_exercise,
            command.argv,
            env,
            cwd=cwd,
            executable=plan.executable,
            tracers=None if strace is None else (strace,),
            always=strace is not None,
            root=tree,
        )
    untraced = tracing is None and trace.idle
    if not untraced:
        poll_seconds = 0.0  # a tracer's threads would wait while the runner polls
    with stopping(tracing), trace:
        argv, executable = frame.argv(trace.argv, trace.env, trace.executable)
        if contained is not None:
            contained.tracer_name = trace.process_name
        ended = end_process(
            argv,
            cwd=cwd,
            env=trace.env,
            timeout=case.timeout_seconds or settings.default_timeout,
            grace=settings.grace_seconds,
            stream_cap=settings.stream_cap,
            cancel=cancel,
            exclusive=preexisting is not None,
            preexisting=preexisting,
            executable=executable,
            marker_env=trace.marker_env,
            on_started=on_started,
            containment=contained,
            watches=command.watches,
            within=command.boundary,
            poll_seconds=poll_seconds,
        )
        # Untraced, the process's record waits until the trial is judged (in a serial run,
        # while the next trial's program starts); a trace is read from the record now.
        traced = TraceOutcome()
        if not untraced:
            result, traced = trace.observe(ended.result())
            ended = EndedProcess(result)
            if tracing is not None:
                tracing.absorb(trace.record, cwd)
    try:
        exceeded: tuple[Problem, ...] = ()
        if ended.started and contained is not None:
            exceeded = tuple(contained.exceeded(ended.term_signal, ended.exit_code))
        context = replace(
            view.context, workspace_changes=view.changes(), roots=settings.roots(copy)
        )
        file_trace = None
        if tracing is not None and ended.started:
            file_trace = tracing.report(case, context)
    except BaseException:
        ended.close()
        raise
    return UnjudgedTrial(
        plan,
        number,
        ended,
        context,
        traced,
        exceeded,
        frame.record,
        command=(command.argv, env),
        null_before=null_before,
        file_trace=file_trace,
    )


def _cwd_boundary(plan: CasePlan, settings: TrialSettings, copy: Path | None) -> Path:
    """The directory a trial's cwd must resolve inside: its placeholder's, the copy, the tree."""
    name, _ = path_root(plan.case.cwd) if plan.case.cwd else (None, "")
    if name is not None:
        return Path(settings.layout.bindings(copy)[name])
    return copy if copy is not None else settings.layout.skill_tree
