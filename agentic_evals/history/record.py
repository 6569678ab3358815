"""Record a report in the history: one transaction per report, keyed by its run id.

Recording is idempotent: a run id already present is left as it is (the same
report again is ``already_recorded``; a different report under that id is a
``conflict`` and is not stored). Concurrent writers cannot duplicate a run: the
insert of the run row is ``ON CONFLICT (run_id) DO NOTHING``, and the cases,
claims and stored report are written only by the transaction that inserted it.

The report of a resumed run takes the place of the runs it continues
(:mod:`agentic_evals.history.supersede`); a run whose place was taken is
``superseded`` and not recorded again.
"""

from __future__ import annotations

import json
from typing import Literal, NamedTuple

from agentic_evals import clock
from agentic_evals.history.store import Store
from agentic_evals.history.supersede import supersede, superseded_by
from agentic_evals.history.view import IndexedReport, ReportView, skill_files_sha256, sortable_time

RecordStatus = Literal["recorded", "already_recorded", "conflict", "superseded"]

_INSERT_RUN = """
INSERT INTO runs (
    run_id, skill, eval_kind, source, fixture_sha256, generated_at, recorded_at, duration_ms,
    readiness, case_readiness, runner_version, repo_sha, repo_ref, shard, focused, interrupted,
    case_count, trial_count, passed_trials, report_sha256, resumed_from
) VALUES (
    :run_id, :skill, :eval_kind, :source, :fixture_sha256, :generated_at, :recorded_at,
    :duration_ms, :readiness, :case_readiness, :runner_version, :repo_sha, :repo_ref, :shard,
    :focused, :interrupted, :case_count, :trial_count, :passed_trials, :report_sha256,
    :resumed_from
) ON CONFLICT (run_id) DO NOTHING
"""
_INSERT_CASE = """
INSERT INTO cases (
    run_id, case_id, name, outcome, required, flaky, passed_trials, total_trials,
    test_source_sha256, oracle_sha256, skill_files, skill_files_sha256
) VALUES (
    :run_id, :case_id, :name, :outcome, :required, :flaky, :passed_trials, :total_trials,
    :test_source_sha256, :oracle_sha256, :skill_files, :skill_files_sha256
)
"""
_INSERT_CLAIM = """
INSERT INTO claims (run_id, claim_id, criticality, verdict)
VALUES (:run_id, :claim_id, :criticality, :verdict)
"""
_INSERT_CLAIM_CASE = """
INSERT INTO claim_cases (run_id, claim_id, case_id) VALUES (:run_id, :claim_id, :case_id)
"""


class RecordOutcome(NamedTuple):
    """What recording one report did."""

    run_id: str
    status: RecordStatus


def record(store: Store, indexed: IndexedReport) -> RecordOutcome:
    """Record ``indexed`` in ``store`` (see the module docstring for the rules).

    Raises:
        HistoryError: The history cannot be written.
    """
    view = indexed.view
    with store.transaction():
        store.lock_records()
        if superseded_by(store, view.run_id) is not None:
            return RecordOutcome(view.run_id, "superseded")
        if not store.execute(_INSERT_RUN, _run_row(indexed)):
            rows = store.query(
                "SELECT report_sha256 FROM runs WHERE run_id = :run_id", {"run_id": view.run_id}
            )
            same = bool(rows) and rows[0]["report_sha256"] == indexed.sha256
            return RecordOutcome(view.run_id, "already_recorded" if same else "conflict")
        store.execute(
            "INSERT INTO reports (run_id, report) VALUES (:run_id, :report)",
            {"run_id": view.run_id, "report": indexed.text},
        )
        store.execute_many(_INSERT_CASE, _case_rows(view))
        store.execute_many(_INSERT_CLAIM, _claim_rows(view))
        store.execute_many(_INSERT_CLAIM_CASE, _claim_case_rows(view))
        if view.resumed_from is not None:
            supersede(store, view.run_id, view.resumed_from.runs)
    return RecordOutcome(view.run_id, "recorded")


def _run_row(indexed: IndexedReport) -> dict[str, object]:
    view = indexed.view
    return {
        "run_id": view.run_id,
        "skill": view.skill,
        "eval_kind": view.eval_kind,
        "source": view.source,
        "fixture_sha256": view.fixture_sha256,
        "generated_at": indexed.generated_at,
        "recorded_at": sortable_time(clock.utc_now()),
        "duration_ms": view.duration_ms,
        "readiness": view.readiness,
        "case_readiness": view.case_readiness,
        "runner_version": view.runner.version,
        "repo_sha": view.repo.sha if view.repo else None,
        "repo_ref": view.repo.ref if view.repo else None,
        "shard": f"{view.shard.index}/{view.shard.total}" if view.shard else None,
        "focused": int(view.focused_cases is not None),
        "interrupted": view.interrupted,
        "case_count": view.case_count,
        "trial_count": view.metrics.trial_pass_rate.total,
        "passed_trials": view.metrics.trial_pass_rate.passed,
        "report_sha256": indexed.sha256,
        "resumed_from": view.resumed_from.run_id if view.resumed_from else None,
    }


def _case_rows(view: ReportView) -> list[dict[str, object]]:
    return [
        {
            "run_id": view.run_id,
            "case_id": case.case_id,
            "name": case.name,
            "outcome": case.outcome,
            "required": int(case.required),
            "flaky": int(case.flaky),
            "passed_trials": case.passed_trials,
            "total_trials": case.total_trials,
            "test_source_sha256": case.test_source_sha256,
            "oracle_sha256": case.oracle_sha256,
            "skill_files": json.dumps(case.skill_files, sort_keys=True),
            "skill_files_sha256": skill_files_sha256(case.skill_files),
        }
        for case in view.cases
    ]


def _claim_rows(view: ReportView) -> list[dict[str, object]]:
    if view.capability_readiness is None:
        return []
    return [
        {
            "run_id": view.run_id,
            "claim_id": claim.id,
            "criticality": claim.criticality,
            "verdict": claim.verdict,
        }
        for claim in view.capability_readiness.claims
    ]


def _claim_case_rows(view: ReportView) -> list[dict[str, object]]:
    if view.capability_readiness is None:
        return []
    case_ids = {case.name: case.case_id for case in view.cases}
    return [
        {"run_id": view.run_id, "claim_id": claim.id, "case_id": case_ids[name]}
        for claim in view.capability_readiness.claims
        for name in dict.fromkeys(claim.supporting_cases)
        if name in case_ids
    ]
