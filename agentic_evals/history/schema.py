"""The history's tables, by schema version, and the migrations between versions.

The version lives in the one row of ``schema_version``. Opening a history
brings it to :data:`SCHEMA_VERSION` (a new database runs every migration from
version 1), each migration in one transaction that also sets the new version, so
a failed migration leaves the previous version intact. A history written by a
later agentic-evals (a version above ours) is refused, never downgraded.

The DDL is plain SQL that SQLite and PostgreSQL both read: ``TEXT``,
``INTEGER``/``BIGINT`` and composite primary keys; no autoincrement, no JSON
type, no dialect-specific defaults.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from agentic_evals.history.errors import HistoryError
from agentic_evals.history.store import Store
from agentic_evals.history.supersede import supersede
from agentic_evals.history.view import skill_files_sha256


class Migration(NamedTuple):
    """The step from ``version - 1`` to ``version``."""

    version: int
    description: str
    statements: tuple[str, ...]
    backfill: Callable[[Store], None] | None = None


_V1: Final = (
    """CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        skill TEXT NOT NULL,
        eval_kind TEXT NOT NULL,
        source TEXT NOT NULL,
        fixture_sha256 TEXT NOT NULL,
        generated_at TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        duration_ms BIGINT NOT NULL,
        readiness TEXT NOT NULL,
        case_readiness TEXT NOT NULL,
        runner_version TEXT NOT NULL,
        repo_sha TEXT,
        repo_ref TEXT,
        shard TEXT,
        focused INTEGER NOT NULL,
        interrupted TEXT,
        case_count INTEGER NOT NULL,
        trial_count INTEGER NOT NULL,
        passed_trials INTEGER NOT NULL,
        report_sha256 TEXT NOT NULL
    )""",
    "CREATE INDEX runs_by_time ON runs (generated_at, recorded_at)",
    "CREATE INDEX runs_by_skill ON runs (skill, generated_at)",
    "CREATE TABLE reports (run_id TEXT PRIMARY KEY, report TEXT NOT NULL)",
    """CREATE TABLE cases (
        run_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        name TEXT NOT NULL,
        outcome TEXT NOT NULL,
        required INTEGER NOT NULL,
        flaky INTEGER NOT NULL,
        passed_trials INTEGER NOT NULL,
        total_trials INTEGER NOT NULL,
        test_source_sha256 TEXT NOT NULL,
        oracle_sha256 TEXT NOT NULL,
        PRIMARY KEY (run_id, case_id)
    )""",
    "CREATE INDEX cases_by_case ON cases (case_id)",
    """CREATE TABLE claims (
        run_id TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        criticality TEXT NOT NULL,
        verdict TEXT NOT NULL,
        PRIMARY KEY (run_id, claim_id)
    )""",
    "CREATE INDEX claims_by_claim ON claims (claim_id)",
    """CREATE TABLE claim_cases (
        run_id TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        PRIMARY KEY (run_id, claim_id, case_id)
    )""",
)

_V2: Final = (
    "ALTER TABLE cases ADD COLUMN skill_files TEXT NOT NULL DEFAULT '{}'",
    "ALTER TABLE cases ADD COLUMN skill_files_sha256 TEXT NOT NULL DEFAULT ''",
    """CREATE TABLE imported_evaluations (
        evaluation_id TEXT PRIMARY KEY,
        source_name TEXT,
        source_organization_name TEXT NOT NULL,
        evaluator_relationship TEXT NOT NULL,
        model_id TEXT NOT NULL,
        evaluation_timestamp TEXT,
        retrieved_timestamp TEXT NOT NULL,
        result_count INTEGER NOT NULL,
        measurement_sha256 TEXT NOT NULL,
        envelope TEXT NOT NULL,
        imported_from TEXT NOT NULL,
        imported_at TEXT NOT NULL
    )""",
)


def _stored_reports(store: Store) -> list[tuple[str, dict[str, Any]]]:
    """Every stored report with its run id, parsed."""
    rows = store.query("SELECT run_id, report FROM reports")
    return [(row["run_id"], json.loads(row["report"])) for row in rows]


def _backfill_skill_files(store: Store) -> None:
    """Fill the new skill-file columns of every recorded case from its stored report."""
    rows = []
    for run_id, report in _stored_reports(store):
        for case in report.get("cases", []):
            files = case.get("skill_files") or {}
            rows.append(
                {
                    "run_id": run_id,
                    "case_id": case["case_id"],
                    "files": json.dumps(files, sort_keys=True),
                    "sha": skill_files_sha256(files),
                }
            )
    store.execute_many(
        "UPDATE cases SET skill_files = :files, skill_files_sha256 = :sha "
        "WHERE run_id = :run_id AND case_id = :case_id",
        rows,
    )


_V3: Final = (
    "ALTER TABLE runs ADD COLUMN resumed_from TEXT",
    """CREATE TABLE superseded_runs (
        run_id TEXT PRIMARY KEY,
        superseded_by TEXT NOT NULL
    )""",
)


def _backfill_resumed(store: Store) -> None:
    """Runs recorded from reports of resumed runs take the place of the runs they continue."""
    resumed = [(run_id, report.get("resumed_from")) for run_id, report in _stored_reports(store)]
    for run_id, source in resumed:
        if not isinstance(source, dict):
            continue
        store.execute(
            "UPDATE runs SET resumed_from = :source WHERE run_id = :run_id",
            {"run_id": run_id, "source": source["run_id"]},
        )
        supersede(store, run_id, source["runs"])


MIGRATIONS: Final = (
    Migration(1, "runs, their cases and claims, and the stored reports", _V1),
    Migration(
        2,
        "the skill-file hashes of every case; imported Every Eval Ever results",
        _V2,
        _backfill_skill_files,
    ),
    Migration(
        3,
        "the run a run resumed; the runs resumed runs took the place of",
        _V3,
        _backfill_resumed,
    ),
)
SCHEMA_VERSION: Final = MIGRATIONS[-1].version
"""The schema this agentic-evals reads and writes."""


def current_version(store: Store) -> int:
    """The history's schema version; 0 for an empty database."""
    if not store.has_table("schema_version"):
        return 0
    rows = store.query("SELECT MAX(version) AS version FROM schema_version")
    return int(rows[0]["version"] or 0)


def migrate(store: Store, target: int = SCHEMA_VERSION) -> int:
    """Bring the history to schema version ``target``; return the version it had before.

    Raises:
        HistoryError: The history has a later version than this agentic-evals knows,
            or a migration failed (the history keeps the version it had).
    """
    before = current_version(store)
    _refuse_newer(store, before)
    if before >= target:
        return before
    with store.transaction():
        store.lock_schema()
        # Read again under the lock: another writer may have migrated meanwhile.
        before = current_version(store)
        _refuse_newer(store, before)
        if before == 0:
            store.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for migration in MIGRATIONS:
            if before < migration.version <= target:
                _apply(store, migration)
        store.execute("DELETE FROM schema_version")
        store.execute("INSERT INTO schema_version (version) VALUES (:v)", {"v": target})
    return before


def _apply(store: Store, migration: Migration) -> None:
    try:
        for statement in migration.statements:
            store.execute(statement)
        if migration.backfill is not None:
            migration.backfill(store)
    except (HistoryError, ValueError, KeyError, TypeError, AttributeError) as error:
        # A stored report the backfill cannot read is a damaged history, not a bug.
        raise HistoryError(
            f"history {store.location.display()}: migration to schema version "
            f"{migration.version} failed ({error}); it keeps version {migration.version - 1}"
        ) from error


def _refuse_newer(store: Store, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"history {store.location.display()} has schema version {version}, newer than "
            f"this agentic-evals reads ({SCHEMA_VERSION}): upgrade agentic-evals"
        )
