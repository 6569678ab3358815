"""Fixtures of the history and EEE tests: the two backends (SQLite, PostgreSQL) and a real
report to vary. A test folder's conftest imports the ones it uses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import postgres_server
import pytest
from click.testing import CliRunner
from history_helpers import HISTORY_FIXTURE

from agentic_evals.cli import cli


@pytest.fixture(scope="session")
def postgres() -> Iterator[postgres_server.Server]:
    server = postgres_server.start()
    if isinstance(server, str):
        pytest.skip(f"PostgreSQL tests need a server: {server}")
    try:
        yield server
    finally:
        postgres_server.stop(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def history_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty history on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'history.sqlite'}"
        return
    server = request.getfixturevalue("postgres")
    with postgres_server.fresh_schema(server) as url:
        yield url


@pytest.fixture(scope="session")
def base_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The report of one real run of a two-case fixture with a critical claim."""
    folder = tmp_path_factory.mktemp("base-report")
    fixture = folder / "agentic_eval.json"
    fixture.write_text(json.dumps(HISTORY_FIXTURE))
    report = folder / "report.json"
    result = CliRunner().invoke(
        cli, ["run", str(fixture), "-o", str(report), "--no-history"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(report.read_text())
    return document
