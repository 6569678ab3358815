"""What ``run`` and ``merge`` call once their report is built: record it, never fail.

The report file is the source of truth and the verdict is already decided, so
nothing that goes wrong here may change either: every failure (an unusable URL,
an unwritable path, a locked or corrupt database, a server that is down, even a
bug) becomes one line for stderr, and the command exits as it would have.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from agentic_evals.history.access import open_history
from agentic_evals.history.errors import HistoryError, ReportIndexError
from agentic_evals.history.record import record
from agentic_evals.history.view import index_document
from agentic_evals.reports.json_out import plain_text
from agentic_evals.reports.model import Report


def record_quietly(
    report: Report, url: str | None, environ: Mapping[str, str] | None = None
) -> str | None:
    """Record ``report`` in the history ``url`` selects.

    Returns:
        None when it was recorded (or already was); otherwise the line to print.
    """
    prefix = f"agentic-evals: history: run {report.run_id} not recorded"
    try:
        # Serialised once: the parsed value is indexed, and the text is what is stored.
        text = plain_text(report)
        indexed = index_document(json.loads(text), text=text)
        with open_history(url, environ) as store:
            outcome = record(store, indexed)
    except (HistoryError, ReportIndexError) as error:
        return f"{prefix}: {error}"
    except Exception as error:  # noqa: BLE001 - a history failure never changes a verdict
        return f"{prefix}: internal error: {type(error).__name__}: {error}"
    if outcome.status == "conflict":
        return f"{prefix}: the history already holds a different report under this run id"
    if outcome.status == "superseded":
        return f"{prefix}: a run that resumed it is recorded in its place"
    return None
