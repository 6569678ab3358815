"""Where ``compare`` gets a report from: the seam for run ids.

:func:`resolve_report` turns a BASE or HEAD argument into a report. Today an
argument is a report file. Run ids (``last``, ``last~1``, a run id) will be
looked up in the run history once it exists; until then they are refused
with a message that says so.
"""

from __future__ import annotations

import re
from pathlib import Path

from agentic_evals.judge.merge import MergeError, read_report
from agentic_evals.reports.model import Report

RUN_REFERENCE = re.compile(r"last(~[0-9]+)?|[0-9a-f]{32}")
"""What a history reference looks like: ``last``, ``last~N`` or a run id."""


class ReportSourceError(ValueError):
    """The argument names no readable report; the message says why."""


def resolve_report(argument: str) -> Report:
    """The report that ``argument`` names (a file today; run ids once history exists).

    Raises:
        ReportSourceError: No such file, an unreadable or invalid report, or a
            run reference while no run history exists.
    """
    path = Path(argument)
    if not path.exists() and RUN_REFERENCE.fullmatch(argument):
        raise ReportSourceError(
            f"{argument}: run ids and 'last'/'last~N' need the run history, which is not "
            "available; give a report file"
        )
    try:
        return read_report(path).report
    except MergeError as error:
        raise ReportSourceError(str(error)) from None
