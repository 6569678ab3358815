"""``history list``, ``history show`` and ``history imported``: read what was recorded."""

from __future__ import annotations

import json
from typing import Any, Final

from agentic_evals.history.models import (
    CaseRow,
    ClaimRow,
    HistoryList,
    ImportedList,
    ImportedSummary,
    RunDetail,
    RunSummary,
)
from agentic_evals.history.resolve import NEWEST_FIRST, resolve_run_id
from agentic_evals.history.store import Row, Store

RUN_COLUMNS: Final = (
    "run_id, skill, eval_kind, source, fixture_sha256, generated_at, readiness, "
    "case_readiness, shard, focused, interrupted, case_count, trial_count, passed_trials, "
    "duration_ms, runner_version, repo_sha, repo_ref, resumed_from"
)
_IMPORTED_COLUMNS: Final = (
    "evaluation_id, source_name, source_organization_name, evaluator_relationship, model_id, "
    "evaluation_timestamp, result_count, imported_from, imported_at"
)


def run_summary(row: Row) -> RunSummary:
    """A ``runs`` row as a :class:`RunSummary`."""
    return RunSummary.model_validate({**row, "focused": bool(row["focused"])})


def list_runs(store: Store, skill: str | None = None, limit: int | None = None) -> HistoryList:
    """The recorded runs, newest first, of one skill or all; at most ``limit`` of them."""
    where = "WHERE skill = :skill" if skill is not None else ""
    params: dict[str, Any] = {"skill": skill}
    page = ""
    if limit is not None:
        page = "LIMIT :limit"
        params["limit"] = limit
    rows = store.query(f"SELECT {RUN_COLUMNS} FROM runs {where} {NEWEST_FIRST} {page}", params)
    return HistoryList(runs=[run_summary(row) for row in rows])


def show_run(store: Store, reference: str) -> RunDetail:
    """One run (a run id, a unique prefix, ``last`` or ``last~N``) with its cases and claims.

    Raises:
        UnknownRunError: No run matches, or a prefix matches several.
    """
    run_id = resolve_run_id(store, reference)
    params = {"run_id": run_id}
    run = store.query(f"SELECT {RUN_COLUMNS} FROM runs WHERE run_id = :run_id", params)[0]
    cases = store.query(
        "SELECT case_id, name, outcome, required, flaky, passed_trials, total_trials, "
        "test_source_sha256, oracle_sha256, skill_files FROM cases "
        "WHERE run_id = :run_id ORDER BY case_id",
        params,
    )
    claims = store.query(
        "SELECT claim_id, criticality, verdict FROM claims WHERE run_id = :run_id "
        "ORDER BY claim_id",
        params,
    )
    links = store.query(
        "SELECT claim_id, case_id FROM claim_cases WHERE run_id = :run_id ORDER BY case_id",
        params,
    )
    supporting: dict[str, list[str]] = {}
    for link in links:
        supporting.setdefault(link["claim_id"], []).append(link["case_id"])
    return RunDetail(
        run=run_summary(run),
        cases=[
            CaseRow.model_validate(
                {
                    **case,
                    "required": bool(case["required"]),
                    "flaky": bool(case["flaky"]),
                    "skill_files": json.loads(case["skill_files"]),
                }
            )
            for case in cases
        ],
        claims=[
            ClaimRow(**claim, case_ids=supporting.get(claim["claim_id"], [])) for claim in claims
        ],
    )


def list_imported(store: Store, limit: int | None = None) -> ImportedList:
    """Results imported from other tools, the most recently imported first."""
    page = "" if limit is None else "LIMIT :limit"
    rows = store.query(
        f"SELECT {_IMPORTED_COLUMNS} FROM imported_evaluations "
        f"ORDER BY imported_at DESC, evaluation_id {page}",
        {"limit": limit},
    )
    return ImportedList(imported=[ImportedSummary.model_validate(row) for row in rows])
