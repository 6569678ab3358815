"""A resumed run is one run in the history: it takes the place of the runs it continues.

A report written by ``run --resume`` holds the trials it kept from the runs it
continues (``resumed_from.runs``); keeping those runs too would count their
trials twice in trends and flakiness. Recording it therefore forgets them and
remembers, in ``superseded_runs``, which run took their place, so that their
report files, imported later (``history import``), are not recorded again. The
report files themselves are never touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from agentic_evals.history.store import Store

RUN_TABLES: Final = ("claim_cases", "claims", "cases", "reports", "runs")
"""Every table keyed by run id, children before the runs themselves."""


def forget_runs(store: Store, run_ids: Sequence[str]) -> None:
    """Remove the runs ``run_ids``, with their cases, claims and stored reports."""
    rows = [{"run_id": run_id} for run_id in run_ids]
    for table in RUN_TABLES:
        store.execute_many(f"DELETE FROM {table} WHERE run_id = :run_id", rows)


def supersede(store: Store, run_id: str, continued: Sequence[str]) -> None:
    """The run ``run_id`` takes the place of the runs ``continued`` (inside a transaction)."""
    others = [other for other in dict.fromkeys(continued) if other != run_id]
    store.execute_many(
        "INSERT INTO superseded_runs (run_id, superseded_by) VALUES (:run_id, :by) "
        "ON CONFLICT (run_id) DO NOTHING",
        [{"run_id": other, "by": run_id} for other in others],
    )
    forget_runs(store, others)


def superseded_by(store: Store, run_id: str) -> str | None:
    """The run that took the place of ``run_id``, if one did."""
    rows = store.query(
        "SELECT superseded_by FROM superseded_runs WHERE run_id = :run_id", {"run_id": run_id}
    )
    return str(rows[0]["superseded_by"]) if rows else None
