"""``history trend CASE_ID | CLAIM_ID``: the pass rate per run, and where the hashes changed.

For a case, each point is the case in one run: its outcome, its trial pass
rate with the Wilson 95% interval, and which of its hashes (test source,
oracle, skill files) differ from the point before. For a claim, each point is
the claim's verdict in one run and the pass rate over its supporting cases'
trials; a change is named per supporting case, and ``cases`` when the set of
supporting cases changed.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from agentic_evals.history.errors import UnknownTargetError
from agentic_evals.history.models import Trend, TrendPoint
from agentic_evals.history.resolve import newest_first
from agentic_evals.history.store import Row, Store
from agentic_evals.judge.metrics import wilson_interval

HASHES: Final = (
    ("test_source", "test_source_sha256"),
    ("oracle", "oracle_sha256"),
    ("skill_files", "skill_files_sha256"),
)
"""A case's identity hashes: the name a change is reported under, and the column."""
_CASE_COLUMNS: Final = (
    "c.case_id, c.outcome, c.passed_trials, c.total_trials, "
    "c.test_source_sha256, c.oracle_sha256, c.skill_files_sha256"
)


class _Sample(NamedTuple):
    run_id: str
    generated_at: str
    outcome: str
    cases: dict[str, Row]


def changed_hashes(before: Row, after: Row) -> list[str]:
    """The names of the identity hashes that differ between two rows of one case."""
    return [name for name, column in HASHES if before[column] != after[column]]


def trend(store: Store, target: str, limit: int | None = None) -> Trend:
    """The last ``limit`` runs (all when None) of a case or claim, oldest first.

    Raises:
        UnknownTargetError: ``target`` is neither a recorded case id nor a claim id.
    """
    # One run more than shown, so that the first point shown knows what changed before it.
    params = {"target": target, "limit": -1 if limit is None else limit + 1}
    shown = slice(None if limit is None else -limit, None)
    if store.query("SELECT 1 AS found FROM cases WHERE case_id = :target LIMIT 1", params):
        points = _points(_case_samples(store, params), "case")
        return Trend(target=target, kind="case", points=points[shown])
    if store.query("SELECT 1 AS found FROM claims WHERE claim_id = :target LIMIT 1", params):
        points = _points(_claim_samples(store, params), "claim")
        return Trend(target=target, kind="claim", points=points[shown])
    raise UnknownTargetError(f"no case or claim {target!r} in the history")


def _limit(params: dict[str, object]) -> str:
    return "" if params["limit"] == -1 else "LIMIT :limit"


def _case_samples(store: Store, params: dict[str, object]) -> list[_Sample]:
    rows = store.query(
        f"SELECT runs.run_id, runs.generated_at, {_CASE_COLUMNS} "
        "FROM cases c JOIN runs ON runs.run_id = c.run_id WHERE c.case_id = :target "
        f"{newest_first('runs')} {_limit(params)}",
        params,
    )
    return [
        _Sample(row["run_id"], row["generated_at"], row["outcome"], {row["case_id"]: row})
        for row in reversed(rows)
    ]


def _claim_samples(store: Store, params: dict[str, object]) -> list[_Sample]:
    claims = store.query(
        "SELECT runs.run_id, runs.generated_at, k.verdict FROM claims k "
        "JOIN runs ON runs.run_id = k.run_id WHERE k.claim_id = :target "
        f"{newest_first('runs')} {_limit(params)}",
        params,
    )
    samples = {
        row["run_id"]: _Sample(row["run_id"], row["generated_at"], row["verdict"], {})
        for row in reversed(claims)
    }
    supporting = store.query(
        f"SELECT l.run_id, {_CASE_COLUMNS} FROM claim_cases l "
        "JOIN cases c ON c.run_id = l.run_id AND c.case_id = l.case_id "
        "WHERE l.claim_id = :target",
        params,
    )
    for row in supporting:
        if row["run_id"] in samples:
            samples[row["run_id"]].cases[row["case_id"]] = row
    return list(samples.values())


def _points(samples: list[_Sample], kind: Literal["case", "claim"]) -> list[TrendPoint]:
    points = []
    previous: _Sample | None = None
    for sample in samples:
        passed = sum(int(case["passed_trials"]) for case in sample.cases.values())
        total = sum(int(case["total_trials"]) for case in sample.cases.values())
        interval = wilson_interval(passed, total)
        changes: list[str] = []
        if previous is not None:
            changes = (
                _case_changes(previous, sample)
                if kind == "case"
                else _claim_changes(previous, sample)
            )
        points.append(
            TrendPoint(
                run_id=sample.run_id,
                generated_at=sample.generated_at,
                outcome=sample.outcome,
                passed=passed,
                total=total,
                rate=interval.rate,
                wilson_low=interval.wilson_low,
                wilson_high=interval.wilson_high,
                hashes_changed=changes,
            )
        )
        previous = sample
    return points


def _case_changes(before: _Sample, after: _Sample) -> list[str]:
    ((before_row,), (after_row,)) = (before.cases.values(), after.cases.values())
    return changed_hashes(before_row, after_row)


def _claim_changes(before: _Sample, after: _Sample) -> list[str]:
    changes = [] if before.cases.keys() == after.cases.keys() else ["cases"]
    for case_id in sorted(before.cases.keys() & after.cases.keys()):
        changes += [
            f"{case_id}: {name}"
            for name in changed_hashes(before.cases[case_id], after.cases[case_id])
        ]
    return changes
