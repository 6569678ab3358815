"""Schema versions and migrations, on both backends: a database created at the first
version is migrated with its data; a later version is refused; a failed migration
keeps the version the database had."""

from __future__ import annotations

from typing import Any

import pytest
from history_helpers import ALPHA, BETA, first_version_history, open_raw, variant, write_v1_run

from agentic_evals.history.access import open_history
from agentic_evals.history.errors import HistoryError
from agentic_evals.history.flaky import flaky_cases
from agentic_evals.history.queries import list_runs, show_run
from agentic_evals.history.schema import MIGRATIONS, SCHEMA_VERSION, current_version, migrate
from agentic_evals.history.view import skill_files_sha256

SCRIPT = {"scripts/run.sh": "sha256:" + "7" * 64}


def test_a_first_version_database_is_migrated_with_its_data(
    history_url: str, base_report: dict[str, Any]
) -> None:
    store = open_raw(history_url)
    try:
        assert migrate(store, target=1) == 0
        assert current_version(store) == 1
        assert not store.has_table("imported_evaluations")
        # Two runs recorded at version 1, whose reports carry skill files: beta's changed.
        write_v1_run(store, variant(base_report, "v1-a", 1, skill_files={BETA: SCRIPT}))
        changed = {"scripts/run.sh": "sha256:" + "8" * 64}
        write_v1_run(
            store,
            variant(
                base_report, "v1-b", 2, outcomes={ALPHA: "FAIL", BETA: "FAIL"},
                skill_files={BETA: changed},
            ),
        )  # fmt: skip
    finally:
        store.close()
    with open_history(history_url) as migrated:
        assert current_version(migrated) == SCHEMA_VERSION
        assert [run.run_id for run in list_runs(migrated).runs] == ["v1-b", "v1-a"]
        cases = {case.case_id: case for case in show_run(migrated, "v1-a").cases}
        assert cases[BETA].skill_files == SCRIPT and cases[ALPHA].skill_files == {}
        hashes = migrated.query(
            "SELECT skill_files_sha256 FROM cases WHERE run_id = 'v1-a' ORDER BY case_id"
        )
        assert [row["skill_files_sha256"] for row in hashes] == [
            skill_files_sha256({}),
            skill_files_sha256(SCRIPT),
        ]
        # The backfilled hashes take part in flaky detection: beta's files changed.
        assert [case.case_id for case in flaky_cases(migrated).flaky] == [ALPHA]
        assert migrated.query("SELECT COUNT(*) AS n FROM imported_evaluations")[0]["n"] == 0


def test_every_version_is_reached_in_order_and_migrating_twice_changes_nothing(
    history_url: str,
) -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    store = open_raw(history_url)
    try:
        assert current_version(store) == 0
        assert migrate(store) == 0
        assert migrate(store) == SCHEMA_VERSION
        rows = store.query("SELECT version FROM schema_version")
        assert rows == [{"version": SCHEMA_VERSION}]
    finally:
        store.close()


def test_a_history_of_a_later_version_is_refused(history_url: str) -> None:
    with open_history(history_url) as store:
        store.execute("UPDATE schema_version SET version = :v", {"v": SCHEMA_VERSION + 1})
    with pytest.raises(HistoryError, match=f"schema version {SCHEMA_VERSION + 1}.*upgrade"):
        with open_history(history_url):
            pass


def test_a_failed_migration_keeps_the_previous_version(
    history_url: str, base_report: dict[str, Any]
) -> None:
    with first_version_history(history_url, variant(base_report, "v1-a", 1)) as store:
        # A stored report that no longer parses makes the backfill of version 2 fail.
        store.execute("UPDATE reports SET report = 'not json'")
        with pytest.raises(HistoryError, match="migration to schema version 2 failed.*version 1"):
            migrate(store)
        assert current_version(store) == 1
        assert not store.has_table("imported_evaluations")
        assert store.query("SELECT COUNT(*) AS n FROM runs")[0]["n"] == 1
