"""Reports to record: variants of one real report, and a way to record them."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import builders

from agentic_evals.history.access import open_history
from agentic_evals.history.location import resolve_location
from agentic_evals.history.record import RecordOutcome, record
from agentic_evals.history.schema import migrate
from agentic_evals.history.store import Store, connect
from agentic_evals.history.view import index_document

CLAIM = "hist.works"
HISTORY_FIXTURE: dict[str, Any] = builders.fixture(
    [
        builders.case(
            "alpha",
            command=["bash", "-c", "echo ok"],
            expected={"exit_code": 0, "stdout_contains": ["ok"]},
            evidence_class="deterministic",
            supports_claims=[CLAIM],
        ),
        builders.case(
            "beta",
            "negative",
            command=["bash", "-c", "echo no >&2; exit 3"],
            expected={"exit_code": 3, "stderr_contains": ["no"]},
            evidence_class="deterministic",
            supports_claims=[CLAIM],
        ),
    ],
    skill="hist",
    eval_kind="runner_selftest",
    capability_claims=[
        {
            "id": CLAIM,
            "criticality": "critical",
            "claim_semantics": "control_flow",
            "evidence_required": ["deterministic"],
        }
    ],
)
"""A two-case fixture (a positive and a negative case) with one critical claim."""
ALPHA = "hist::alpha"
BETA = "hist::beta"


def variant(
    base: Mapping[str, Any],
    run_id: str,
    minute: int,
    outcomes: Mapping[str, str] | None = None,
    hashes: Mapping[str, Mapping[str, str]] | None = None,
    skill_files: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """``base`` as another run: its id, time, case outcomes, case hashes and skill files.

    Cases are named by case id; outcomes are PASS, FAIL, BLOCKED or NOT_TESTED, and
    every trial of the case gets the same outcome (BLOCKED trials as INFRA_BLOCKED).
    """
    report = copy.deepcopy(dict(base))
    report["run_id"] = run_id
    report["generated_at"] = f"2026-12-01T10:{minute:02d}:00+00:00"
    for case in report["cases"]:
        outcome = (outcomes or {}).get(case["case_id"])
        if outcome is not None:
            trial_outcome = "INFRA_BLOCKED" if outcome == "BLOCKED" else outcome
            case["outcome"] = outcome
            for trial in case["trials"]:
                trial["outcome"] = trial_outcome
            case["passed_trials"] = len(case["trials"]) if outcome == "PASS" else 0
            case["total_trials"] = 0 if outcome == "NOT_TESTED" else len(case["trials"])
        case.update((hashes or {}).get(case["case_id"], {}))
        if skill_files is not None and case["case_id"] in skill_files:
            case["skill_files"] = dict(skill_files[case["case_id"]])
    return report


def record_all(url: str, *reports: Mapping[str, Any]) -> list[RecordOutcome]:
    with open_history(url) as store:
        return [record(store, index_document(dict(report))) for report in reports]


def write_reports(folder: Path, *reports: Mapping[str, Any]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for report in reports:
        path = folder / f"{report['run_id']}.json"
        path.write_text(json.dumps(report, indent=2))
        paths.append(path)
    return paths


# What the first schema version wrote for a run: its columns, as they were then.
V1_RUN = """INSERT INTO runs VALUES (:run_id, 'hist', 'runner_selftest', 'agentic_eval.json',
    :fixture, :generated_at, :generated_at, 10, 'READY', 'READY', '0.1.0', NULL, NULL, NULL,
    0, NULL, 2, 4, 4, :sha)"""
V1_CASE = """INSERT INTO cases VALUES (:run_id, :case_id, :name, :outcome, 1, 0, :passed, 2,
    :test, :oracle)"""


def open_raw(url: str) -> Store:
    return connect(resolve_location(url, {}))


def write_v1_run(store: Store, report: dict[str, Any]) -> None:
    indexed = index_document(report)
    with store.transaction():
        store.execute(
            V1_RUN,
            {
                "run_id": report["run_id"],
                "fixture": report["fixture_sha256"],
                "generated_at": indexed.generated_at,
                "sha": indexed.sha256,
            },
        )
        store.execute(
            "INSERT INTO reports VALUES (:run_id, :report)",
            {"run_id": report["run_id"], "report": indexed.text},
        )
        for case in report["cases"]:
            store.execute(
                V1_CASE,
                {
                    "run_id": report["run_id"],
                    "case_id": case["case_id"],
                    "name": case["name"],
                    "outcome": case["outcome"],
                    "passed": case["passed_trials"],
                    "test": case["test_source_sha256"],
                    "oracle": case["oracle_sha256"],
                },
            )


@contextmanager
def first_version_history(url: str, *reports: dict[str, Any]) -> Iterator[Store]:
    """An open history at schema version 1 holding ``reports``; closed on leaving."""
    store = open_raw(url)
    try:
        migrate(store, target=1)
        for report in reports:
            write_v1_run(store, report)
        yield store
    finally:
        store.close()
