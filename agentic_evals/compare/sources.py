"""Where ``compare`` gets a report from: a report file, or a run recorded in the history.

:func:`resolve_report` turns a BASE or HEAD argument into a report. An
argument that names a file (an existing file, or a name ending in ``.json``)
is read as a report file; anything else is a run reference (a run id, a
unique prefix of one, ``last``, ``last~N``) looked up in the history with
:func:`agentic_evals.history.access.run_report`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from agentic_evals.history.access import run_report
from agentic_evals.history.errors import HistoryError
from agentic_evals.history.resolve import names_a_file
from agentic_evals.judge.merge import MergeError, read_report
from agentic_evals.reports.model import Report


class ReportSourceError(ValueError):
    """The argument names no readable report; the message says why."""


class NamedReport(NamedTuple):
    """A report and where it came from, as the comparison names it."""

    report: Report
    source: str
    """The file as given, or ``run <run id>`` for a recorded run."""


def resolve_report(
    argument: str, history_url: str | None = None, environ: Mapping[str, str] | None = None
) -> NamedReport:
    """The report that ``argument`` names: a report file, or a run in the history.

    ``history_url`` selects the history as ``--history`` does (default: the
    environment's, else the user's default history).

    Raises:
        ReportSourceError: No such file, an unreadable or invalid report, a run
            reference that matches no recorded run (or several), or a history
            that cannot be opened.
    """
    if names_a_file(argument):
        try:
            return NamedReport(read_report(Path(argument)).report, argument)
        except MergeError as error:
            raise ReportSourceError(str(error)) from None
    try:
        stored = run_report(argument, history_url, environ)
    except HistoryError as error:
        raise ReportSourceError(f"{argument}: {error}") from None
    return NamedReport(stored.report, f"run {stored.run_id}")
