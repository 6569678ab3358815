"""A finished trial, not judged yet, and its verdict: its oracles, null trial and problems."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agentic_evals import codes
from agentic_evals.oracles.base import OracleContext
from agentic_evals.oracles.null_trial import null_trial
from agentic_evals.oracles.outcome import trial_outcome
from agentic_evals.oracles.registry import evaluate as evaluate_oracles
from agentic_evals.reports.model import FileTrace, Problem, StreamStats, TrialIsolation, TrialReport
from agentic_evals.runner.capture import CapturedStream
from agentic_evals.runner.hints import SEARCHED_BYTES, missing_dependency
from agentic_evals.runner.plan import CasePlan
from agentic_evals.runner.process_record import EndedProcess, ProcessResult
from agentic_evals.runner.trace import TraceOutcome
from agentic_evals.runner.trace_files import untraced_problem

EXCERPT_CHARS = 10_000


@dataclass
class UnjudgedTrial:
    """A trial whose processes are all gone, with what it left, not judged yet."""

    plan: CasePlan
    number: int
    process: EndedProcess | None
    """None when the trial could not run (then ``verdict`` says why); its record is
    made when the trial is judged."""
    context: OracleContext
    traced: TraceOutcome = TraceOutcome()
    problems: tuple[Problem, ...] = ()
    """Limits the trial exceeded."""
    record: TrialIsolation | None = None
    """Its view and containment, for the report."""
    kept: str | None = None
    """Where its changes were kept (``--keep-workspaces``), once its view was released."""
    verdict: TrialReport | None = None
    """The verdict of a trial that could not run."""
    command: tuple[list[str], Mapping[str, str]] = ([], {})
    """The trial's own argv and environment (before any tracer wrapped them)."""
    null_before: frozenset[str] | None = None
    """On the shared tree: what the tree oracles found just before the command ran."""
    file_trace: FileTrace | None = None
    """What it ran, opened and wrote in the skill tree (live and real-world cases)."""

    def judge(self) -> TrialReport:
        """Judge the trial; may be called again (after an interruption) until :meth:`close`."""
        if self.verdict is not None or self.process is None:
            assert self.verdict is not None
            return self.verdict
        return kept_in(trial_verdict(self, self.process.result()), self.kept)

    def close(self) -> None:
        """Release the captured output."""
        if self.process is not None:
            self.process.close()


def kept_in(report: TrialReport, kept: str | None) -> TrialReport:
    """``report`` saying where its trial's changes were kept (``--keep-workspaces``)."""
    if kept is None:
        return report
    return report.model_copy(update={"workspace_path": kept})


def trial_verdict(trial: UnjudgedTrial, result: ProcessResult) -> TrialReport:
    """The record of ``trial``, which ran to ``result``: judged, redacted, with its hint."""
    return _with_hint(trial, result, _judge(trial, result))


def _stats(stream: CapturedStream) -> StreamStats:
    # The runner's own counts (two ints and a bool): nothing to validate.
    return StreamStats.model_construct(
        total_bytes=stream.total_bytes, kept_bytes=stream.kept_bytes, truncated=stream.truncated
    )


def _with_hint(trial: UnjudgedTrial, result: ProcessResult, report: TrialReport) -> TrialReport:
    """A failed trial that missed a module or program says which, second among its problems."""
    if report.outcome != "FAIL":
        return report
    argv, env = trial.command
    hint = missing_dependency(argv, result.stderr.tail(SEARCHED_BYTES), result.start_error, env)
    if hint is None:
        return report
    hint = hint.model_copy(update={"message": trial.plan.redactor.redact(hint.message)})
    # Second: the first problem stays the one that decided the trial.
    problems = [*report.problems[:1], hint, *report.problems[1:]]
    return report.model_copy(update={"problems": problems})


def _judge(trial: UnjudgedTrial, result: ProcessResult) -> TrialReport:
    case, redactor, context, traced = (
        trial.plan.case,
        trial.plan.redactor,
        trial.context,
        trial.traced,
    )
    oracles, null = None, None
    if result.start_error is None:
        oracles = evaluate_oracles(case, result, context)
        null = sorted(null_trial(case, context, trial.null_before))
    extra = (*traced.problems, *trial.problems)
    if not any(p.code == codes.TRACE_UNAVAILABLE for p in extra):
        extra = (*extra, *untraced_problem(trial.file_trace))
    outcome, problems = trial_outcome(case, result, oracles, extra_problems=extra)
    return TrialReport(
        trial_id=f"{trial.plan.case_id}#{trial.number}",
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
        stdout_sha256=result.stdout.sha256,
        stderr_stats=_stats(result.stderr),
        orphan_pids_after_teardown=list(result.orphan_pids),
        artifact_hashes=dict(oracles.artifact_hashes) if oracles else {},
        trace_method=traced.method,
        file_trace=trial.file_trace,
        traced_execs=traced.execs,
        workspace_changes=context.workspace_changes,
        isolation=trial.record,
        null_trial_failures=null,
    )
