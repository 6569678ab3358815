"""``history flaky``: cases whose outcome changed between runs while nothing about them did.

A case is flaky when, among the last ``window`` runs in which it passed or
failed, two consecutive runs disagree (one PASS, one FAIL) while its test
source hash, its oracle hash and the hashes of its skill files are the same in
both. A change of outcome that comes with a changed hash is explained by the
change, not flakiness. BLOCKED and NOT_TESTED runs decide nothing about the
case and are left out of the window.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final

from agentic_evals.history.models import FlakyCase, FlakyList
from agentic_evals.history.resolve import newest_first
from agentic_evals.history.store import Row, Store
from agentic_evals.history.trend import changed_hashes

DEFAULT_WINDOW: Final = 10
"""Runs per case that ``history flaky`` looks at when ``--window`` is not given."""

_RECENT: Final = f"""
SELECT case_id, run_id, skill, outcome, test_source_sha256, oracle_sha256, skill_files_sha256
FROM (
    SELECT c.case_id, c.run_id, runs.skill, c.outcome, c.test_source_sha256, c.oracle_sha256,
           c.skill_files_sha256, runs.generated_at, runs.recorded_at,
           ROW_NUMBER() OVER (PARTITION BY c.case_id {newest_first("runs")}) AS position
    FROM cases c JOIN runs ON runs.run_id = c.run_id
    WHERE c.outcome IN ('PASS', 'FAIL')
) recent
WHERE position <= :window
ORDER BY case_id, generated_at, recorded_at, run_id
"""


def flaky_cases(store: Store, window: int = DEFAULT_WINDOW) -> FlakyList:
    """Every flaky case over the last ``window`` decided runs of each case, most flips first."""
    by_case: dict[str, list[Row]] = {}
    for row in store.query(_RECENT, {"window": window}):
        by_case.setdefault(row["case_id"], []).append(row)
    found = [case for rows in by_case.values() if (case := _flaky(rows)) is not None]
    found.sort(key=lambda case: (-case.flips, case.case_id))
    return FlakyList(flaky=found)


def _flaky(rows: list[Row]) -> FlakyCase | None:
    """The case, when its rows (oldest first) hold a flip."""
    flipped_in = [
        after["run_id"]
        for before, after in pairwise(rows)
        if before["outcome"] != after["outcome"] and not changed_hashes(before, after)
    ]
    if not flipped_in:
        return None
    last = rows[-1]
    passes = sum(row["outcome"] == "PASS" for row in rows)
    return FlakyCase(
        case_id=last["case_id"],
        skill=last["skill"],
        runs=len(rows),
        flips=len(flipped_in),
        passes=passes,
        failures=len(rows) - passes,
        flipped_in=flipped_in,
        last_outcome=last["outcome"],
        test_source_sha256=last["test_source_sha256"],
        oracle_sha256=last["oracle_sha256"],
        skill_files_sha256=last["skill_files_sha256"],
    )
