"""What a reader needs to see of a failing case: its first failing trial's output tail. Pure.

Every renderer (terminal summary, Markdown, JUnit, HTML) shows the same
detail, taken from the report only: the trial's stdout and stderr are the
report's redacted excerpts, so nothing secret reappears here.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from agentic_evals.reports.model import CaseReport, Report, StreamStats, TrialReport

TAIL_LINES: Final = 20
"""Lines of each stream shown for a failing trial."""

DETAILED_OUTCOMES: Final = frozenset({"FAIL", "BLOCKED"})
"""Case outcomes whose first failing trial is shown."""


class StreamTail(NamedTuple):
    """The last lines of one stream of a trial, and how much was left out."""

    stream: str
    """``stdout`` or ``stderr``."""
    lines: list[str]
    """The last lines, oldest first."""
    total_lines: int
    """Lines in the report's excerpt of the stream."""
    total_bytes: int
    """Bytes the program wrote to the stream."""

    @property
    def cut_lines(self) -> int:
        """Lines of the excerpt not shown."""
        return self.total_lines - len(self.lines)

    def heading(self, trial_id: str) -> str:
        """``stderr of s::c#1: last 20 of 31 lines (11 cut), 412 bytes written``."""
        if not self.total_lines:
            return f"{self.stream} of {trial_id}: empty"
        shown = len(self.lines)
        if self.cut_lines:
            amount = f"last {shown} of {self.total_lines} lines ({self.cut_lines} cut)"
        else:
            amount = f"{shown} line{'s' if shown != 1 else ''}"
        return f"{self.stream} of {trial_id}: {amount}, {self.total_bytes} bytes written"


class FailureDetail(NamedTuple):
    """A failing or blocked case's first failing trial, with its output tails."""

    case: CaseReport
    trial: TrialReport
    tails: list[StreamTail]


def stream_tail(stream: str, text: str, stats: StreamStats, lines: int = TAIL_LINES) -> StreamTail:
    """The last ``lines`` lines of ``text`` (a trial's report excerpt of ``stream``)."""
    all_lines = text.splitlines()
    return StreamTail(
        stream, all_lines[-lines:] if lines > 0 else [], len(all_lines), stats.total_bytes
    )


def first_failing_trial(case: CaseReport) -> TrialReport | None:
    """The first trial that did not pass (a FAIL before anything else), or None."""
    for wanted in ("FAIL", None):
        for trial in case.trials:
            if trial.outcome != "PASS" and (wanted is None or trial.outcome == wanted):
                return trial
    return None


def failure_detail(case: CaseReport, lines: int = TAIL_LINES) -> FailureDetail | None:
    """The detail of a FAIL or BLOCKED case; None for any other outcome."""
    if case.outcome not in DETAILED_OUTCOMES:
        return None
    trial = first_failing_trial(case)
    if trial is None:
        return None
    tails = [
        stream_tail("stderr", trial.stderr, trial.stderr_stats, lines),
        stream_tail("stdout", trial.stdout, trial.stdout_stats, lines),
    ]
    return FailureDetail(case, trial, tails)


def failure_details(report: Report, lines: int = TAIL_LINES) -> list[FailureDetail]:
    """The detail of every FAIL or BLOCKED case, in report order."""
    found = (failure_detail(case, lines) for case in report.cases)
    return [detail for detail in found if detail is not None]


def trial_line(trial: TrialReport) -> str:
    """``s::c#1 FAIL exit 3 in 12 ms``: one trial in one line."""
    if trial.timed_out:
        ended = "timed out"
    elif trial.exit_code is None:
        ended = "did not start" if trial.term_signal is None else f"signal {trial.term_signal}"
    else:
        ended = f"exit {trial.exit_code}"
    return f"{trial.trial_id} {trial.outcome} {ended} in {trial.duration_ms} ms"
