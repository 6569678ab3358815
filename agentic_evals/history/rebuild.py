"""``history import REPORT...``: record report files, so the history can be rebuilt from them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agentic_evals.history.errors import DocumentError
from agentic_evals.history.models import ReportImport, ReportImportReceipt
from agentic_evals.history.record import record
from agentic_evals.history.store import Store
from agentic_evals.history.view import read_report_file


def import_reports(store: Store, paths: Sequence[Path]) -> ReportImportReceipt:
    """Record every report in ``paths``, one transaction each; a bad file stops nothing.

    Raises:
        HistoryError: The history cannot be written (what was recorded before stays).
    """
    entries = []
    for path in paths:
        try:
            indexed = read_report_file(path)
        except DocumentError as error:
            entries.append(
                ReportImport(path=str(path), run_id=None, status="invalid", message=str(error))
            )
            continue
        outcome = record(store, indexed)
        message = None
        if outcome.status == "conflict":
            message = (
                f"{path}: run {outcome.run_id} is already recorded with a different report; "
                "the recorded one is kept"
            )
        elif outcome.status == "superseded":
            message = f"{path}: run {outcome.run_id} was resumed; the run that resumed it is kept"
        entries.append(
            ReportImport(
                path=str(path), run_id=outcome.run_id, status=outcome.status, message=message
            )
        )
    statuses = [entry.status for entry in entries]
    return ReportImportReceipt(
        reports=entries,
        recorded=statuses.count("recorded"),
        already_recorded=statuses.count("already_recorded"),
        conflicts=statuses.count("conflict"),
        superseded=statuses.count("superseded"),
        invalid=statuses.count("invalid"),
    )
