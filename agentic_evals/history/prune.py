"""``history prune --keep N``: forget all but the newest N runs (report files stay)."""

from __future__ import annotations

from agentic_evals.history.models import PruneReceipt
from agentic_evals.history.resolve import NEWEST_FIRST
from agentic_evals.history.store import Store
from agentic_evals.history.supersede import forget_runs


def prune(store: Store, keep: int) -> PruneReceipt:
    """Remove every run but the ``keep`` newest, with its cases, claims and stored report.

    Imported Every Eval Ever results are not runs and are kept, and so is the memory of
    which runs a resumed run took the place of.
    """
    with store.transaction():
        run_ids = [row["run_id"] for row in store.query(f"SELECT run_id FROM runs {NEWEST_FIRST}")]
        removed = run_ids[keep:]
        forget_runs(store, removed)
    return PruneReceipt(keep=keep, kept=len(run_ids) - len(removed), removed=removed)
