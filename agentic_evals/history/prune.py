"""``history prune --keep N``: forget all but the newest N runs (report files stay)."""

from __future__ import annotations

from typing import Final

from agentic_evals.history.models import PruneReceipt
from agentic_evals.history.resolve import NEWEST_FIRST
from agentic_evals.history.store import Store

_RUN_TABLES: Final = ("claim_cases", "claims", "cases", "reports", "runs")
"""Every table keyed by run id, children before the runs themselves."""


def prune(store: Store, keep: int) -> PruneReceipt:
    """Remove every run but the ``keep`` newest, with its cases, claims and stored report.

    Imported Every Eval Ever results are not runs and are kept.
    """
    with store.transaction():
        run_ids = [row["run_id"] for row in store.query(f"SELECT run_id FROM runs {NEWEST_FIRST}")]
        removed = run_ids[keep:]
        rows = [{"run_id": run_id} for run_id in removed]
        for table in _RUN_TABLES:
            store.execute_many(f"DELETE FROM {table} WHERE run_id = :run_id", rows)
    return PruneReceipt(keep=keep, kept=len(run_ids) - len(removed), removed=removed)
