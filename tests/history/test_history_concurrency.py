"""Parallel CI shards share one history: two writers at once lose and duplicate nothing,
on SQLite and on PostgreSQL, starting from an empty database that both migrate."""

from __future__ import annotations

import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

from history_helpers import variant, write_reports

from agentic_evals.history.access import open_history

PER_WRITER = 60
SHARED = 20  # reports both writers record: each run must still be there exactly once

# One writer: open the (new, empty) history, wait until both are ready, then record each
# report in its own transaction, a moment apart as shards finish, and print how many it
# recorded itself.
WRITER = """
import sys, time
from pathlib import Path
from agentic_evals.history.access import open_history
from agentic_evals.history.record import record
from agentic_evals.history.view import read_report_file
url, go, ready, paths = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:]
indexed = [read_report_file(Path(p)) for p in paths]
with open_history(url) as store:
    ready.touch()
    while not go.exists():
        time.sleep(0.002)
    recorded = 0
    for report in indexed:
        recorded += record(store, report).status == "recorded"
        time.sleep(0.003)
    print(recorded)
"""


def test_two_concurrent_writers_lose_and_duplicate_nothing(
    history_url: str, base_report: dict[str, Any], tmp_path: Path
) -> None:
    total = 2 * PER_WRITER - SHARED
    reports = [variant(base_report, f"run-{n:03d}", n % 60) for n in range(total)]
    batches = [
        write_reports(tmp_path / "first", *reports[:PER_WRITER]),
        write_reports(tmp_path / "second", *reports[PER_WRITER - SHARED :]),
    ]
    go = tmp_path / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, history_url, str(go), str(tmp_path / f"ready.{n}"),
             *map(str, batch)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, batch in enumerate(batches)
    ]  # fmt: skip
    while len(list(tmp_path.glob("ready.*"))) < 2 and all(w.poll() is None for w in writers):
        time.sleep(0.002)  # until both have opened the history and wait at the barrier
    go.touch()
    results = [writer.communicate(timeout=300) for writer in writers]
    for writer, (_, stderr) in zip(writers, results, strict=True):
        assert writer.returncode == 0, stderr
    # Every run was recorded once, by one writer or the other.
    assert sum(int(stdout) for stdout, _ in results) == total
    with open_history(history_url) as store:
        runs = store.query("SELECT run_id, recorded_at FROM runs ORDER BY recorded_at, run_id")
        cases = store.query("SELECT COUNT(*) AS n FROM cases")[0]["n"]
        claims = store.query("SELECT COUNT(*) AS n FROM claim_cases")[0]["n"]
        stored = store.query("SELECT COUNT(*) AS n FROM reports")[0]["n"]
    assert sorted(row["run_id"] for row in runs) == [report["run_id"] for report in reports]
    assert (cases, claims, stored) == (2 * total, 2 * total, total)
    # The writers did write at the same time: their own runs interleave in recording order.
    writer_of = {r["run_id"]: 0 for r in reports[: PER_WRITER - SHARED]}
    writer_of |= {r["run_id"]: 1 for r in reports[PER_WRITER:]}
    order = [writer_of[row["run_id"]] for row in runs if row["run_id"] in writer_of]
    assert sum(a != b for a, b in pairwise(order)) >= 2, order
