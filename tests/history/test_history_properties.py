"""Flaky detection and trends agree with the rule as written, for any sequence of runs:
generated outcomes and hash changes, recorded in any order, read back in time order."""

from __future__ import annotations

import tempfile
from itertools import pairwise
from pathlib import Path
from random import Random
from typing import Any

from history_helpers import ALPHA, record_all, variant
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agentic_evals.history.access import open_history
from agentic_evals.history.flaky import flaky_cases
from agentic_evals.history.trend import trend

# Mostly decided runs, few test versions: flips and window cuts are common.
OUTCOMES = st.sampled_from(["PASS", "FAIL", "PASS", "FAIL", "BLOCKED", "NOT_TESTED"])
# Each run: its outcome for alpha, and which test-source version alpha had then.
RUNS = st.lists(st.tuples(OUTCOMES, st.integers(0, 1)), min_size=1, max_size=8)


def expected_flips(runs: list[tuple[str, int]], window: int) -> list[int]:
    """The rule, in words made code: positions of the later run of each flip."""
    decided = [(n, outcome, version) for n, (outcome, version) in enumerate(runs)
               if outcome in ("PASS", "FAIL")][-window:]  # fmt: skip
    return [
        after[0]
        for before, after in pairwise(decided)
        if before[1] != after[1] and before[2] == after[2]
    ]


@settings(max_examples=60)
@given(runs=RUNS, window=st.integers(2, 5), order=st.randoms(use_true_random=False))
# The flip of run 1 lies outside a window of the last two decided runs.
@example(runs=[("PASS", 0), ("FAIL", 0), ("PASS", 0), ("PASS", 0)], window=2, order=Random(0))
# A flip across a BLOCKED run, and none across a changed test.
@example(runs=[("PASS", 0), ("BLOCKED", 0), ("FAIL", 0), ("PASS", 1)], window=5, order=Random(1))
def test_flaky_and_trend_follow_the_rule(
    base_report: dict[str, Any], runs: list[tuple[str, int]], window: int, order: Any
) -> None:
    reports = [
        variant(base_report, f"run-{n}", n, outcomes={ALPHA: outcome},
                hashes={ALPHA: {"test_source_sha256": str(version) * 64}})
        for n, (outcome, version) in enumerate(runs)
    ]  # fmt: skip
    shuffled = list(reports)
    order.shuffle(shuffled)  # recording order is not time order (history import of old files)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'h.sqlite'}"
        record_all(url, *shuffled)
        with open_history(url) as store:
            found = {case.case_id: case for case in flaky_cases(store, window).flaky}
            points = trend(store, ALPHA).points
    flips = expected_flips(runs, window)
    if flips:
        assert found[ALPHA].flipped_in == [f"run-{n}" for n in flips]
    else:
        assert ALPHA not in found
    assert [p.run_id for p in points] == [f"run-{n}" for n in range(len(runs))]
    assert [p.outcome for p in points] == [outcome for outcome, _ in runs]
    changed = [["test_source"] if a[1] != b[1] else [] for a, b in pairwise(runs)]
    assert [p.hashes_changed for p in points] == [[], *changed]
