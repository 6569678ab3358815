"""Names and times of an export: the evaluation id from the run id, the epoch time stamps.

``evaluation_id`` is ``<skill>.<eval_kind>/agent-skill/<skill>/<run_id>`` (the
format's ``eval_name/model_id/...`` convention, with the run id last, since a
run id is what makes an evaluation unique here): exporting one run again gives
the same id, so the receiving side deduplicates it.
"""

from __future__ import annotations

import datetime as dt

from agentic_evals.reports.model import Report


def evaluation_name(report: Report) -> str:
    """``<skill>.<eval_kind>``: the name of every result of the envelope."""
    return f"{report.skill}.{report.eval_kind}"


def model_id(report: Report) -> str:
    """``agent-skill/<skill>``: what was evaluated, as an EEE model id."""
    return f"agent-skill/{report.skill}"


def evaluation_id(report: Report) -> str:
    """The envelope's id, derived from the run id alone (so a re-export deduplicates)."""
    return f"{evaluation_name(report)}/{model_id(report)}/{report.run_id}"


def run_id_of(identifier: str) -> str:
    """The run id an ``evaluation_id`` of this tool ends with."""
    return identifier.rsplit("/", 1)[-1]


def finished_at(report: Report) -> dt.datetime:
    """When the report was written (UTC)."""
    return dt.datetime.fromisoformat(report.generated_at).astimezone(dt.UTC)


def started_at(report: Report) -> dt.datetime:
    """When the run started: the report's time less its duration."""
    return finished_at(report) - dt.timedelta(milliseconds=report.duration_ms)


def epoch(moment: dt.datetime) -> str:
    """Whole Unix seconds, as the format's time stamps are."""
    return str(int(moment.timestamp()))


def iso(moment: dt.datetime) -> str:
    """ISO 8601 UTC with milliseconds."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
