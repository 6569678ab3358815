"""Recording costs a run the standard library's sqlite3 only: no PostgreSQL driver unless
the history is on PostgreSQL, nothing at all with --no-history or for --help."""

from __future__ import annotations

from pathlib import Path

from test_start_up_imports import fixture, imported_by


def test_recording_in_sqlite_imports_no_postgresql_driver(tmp_path: Path) -> None:
    code, modules, printed = imported_by("run", str(fixture(tmp_path)))
    assert code == 0, printed
    assert "sqlite3" in modules
    assert "psycopg" not in modules


def test_no_history_and_help_import_no_database_library(tmp_path: Path) -> None:
    code, modules, printed = imported_by("run", str(fixture(tmp_path)), "--no-history")
    assert code == 0, printed
    assert not {"sqlite3", "psycopg"} & modules
    for command in (
        ["history", "--help"],
        ["history", "list", "--help"],
        ["export", "eee", "--help"],
        ["import", "eee", "--help"],
        ["--help"],
    ):
        code, modules, printed = imported_by(*command)
        assert code == 0, printed
        assert not {"sqlite3", "psycopg"} & modules, command
