"""Shared test setup: a calm terminal, derandomised hypothesis, report checks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

# The history and EEE tests' fixtures: both backends (PostgreSQL started once per session).
from history_backends import base_report, history_url, postgres
from hypothesis import HealthCheck, settings

from agentic_evals.shard import SHARD_VARIABLES

__all__ = ["base_report", "history_url", "postgres"]

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _calm_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture(autouse=True)
def _no_ci_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    # In a parallel CI job (GitLab parallel, Indexed Job) these would shard the tests' runs.
    for name in SHARD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True, scope="session")
def _private_history_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Every run and merge records its report in the history: never in the real home's,
    # not even from module- or session-scoped fixtures, which run before _private_history.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data-session")))
        patch.delenv("AGENTIC_EVALS_HISTORY", raising=False)
        yield


@pytest.fixture(autouse=True)
def _private_history(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # And a history of its own for each test.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    monkeypatch.delenv("AGENTIC_EVALS_HISTORY", raising=False)


@pytest.fixture(scope="session")
def report_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((REPO / "schemas" / "report.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture
def assert_valid_report(
    report_validator: jsonschema.Draft202012Validator,
) -> Iterator[Callable[[Any], None]]:
    def check(document: Any) -> None:
        errors = sorted(report_validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]

    yield check
