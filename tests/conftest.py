"""Shared test setup: a calm terminal, derandomised hypothesis, every document checked.

Every JSON document the tool writes during a test (a run report, a merged
report, a coverage or audit document, a history listing...) and every run or
merge report it builds is validated against its committed schema in
``schemas/``, automatically: a test cannot produce an invalid report and pass.
"""

from __future__ import annotations

import functools
import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

# The history and EEE tests' fixtures: both backends (PostgreSQL started once per session).
from history_backends import base_report, history_url, postgres
from hypothesis import HealthCheck, settings

from agentic_evals.cli.schemas import SCHEMAS, spec
from agentic_evals.judge import merge, report
from agentic_evals.judge.shard import SHARD_VARIABLES
from agentic_evals.reports import json_out
from agentic_evals.reports.model import Report
from agentic_evals.signals import STOPPING

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
def _signal_handlers() -> Iterator[None]:
    # The command line's entry point takes SIGINT, SIGTERM and SIGHUP for itself; tests that
    # call it in this process give pytest its own handlers back afterwards.
    before = {signum: signal.getsignal(signum) for signum in STOPPING}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


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


@functools.cache
def document_validators() -> dict[str, jsonschema.Draft202012Validator]:
    """The committed schemas of the documents that name their kind, by that name."""
    found: dict[str, jsonschema.Draft202012Validator] = {}
    for path in sorted((REPO / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        kind = schema.get("properties", {}).get("schema", {}).get("const")
        if isinstance(kind, str):
            found[kind] = jsonschema.Draft202012Validator(schema)
    return found


def check_document(document: Any) -> None:
    """Fail when ``document`` names a kind whose committed schema it does not satisfy."""
    kind = document.get("schema") if isinstance(document, dict) else None
    validator = document_validators().get(kind) if isinstance(kind, str) else None
    if validator is None:
        return
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, [f"{kind} {list(e.path)}: {e.message}" for e in errors]


@functools.cache
def model_validators() -> dict[type[Any], jsonschema.Draft202012Validator]:
    """The committed schema of every output document, by its model (documents without a
    ``schema`` member, such as the history's, are matched by model)."""
    found: dict[type[Any], jsonschema.Draft202012Validator] = {}
    for kind in SCHEMAS:
        document = spec(kind)
        if document.direction == "output":
            schema = json.loads((REPO / "schemas" / document.file).read_text(encoding="utf-8"))
            found[document.model] = jsonschema.Draft202012Validator(schema)
    return found


def check_model(model: Any, document: Any) -> None:
    """Fail when ``document`` (``model`` dumped) does not satisfy its model's committed schema."""
    validator = model_validators().get(type(model))
    if validator is not None:
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, [f"{type(model).__name__} {list(e.path)}: {e.message}" for e in errors]


def check_report(report: Report) -> Report:
    check_document(report.model_dump(mode="json", by_alias=True))
    return report


@pytest.fixture(autouse=True)
def _every_document_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    written = json_out.dump_model
    built = report.build_report
    merged = merge.merge_reports

    def dump_model(model: Any) -> str:
        text = written(model)
        check_document(json.loads(text))
        check_model(model, json.loads(text))
        return text

    monkeypatch.setattr(json_out, "dump_model", dump_model)
    monkeypatch.setattr(
        "agentic_evals.evaluation.evaluate.build_report",
        lambda *a, **k: check_report(built(*a, **k)),
    )
    monkeypatch.setattr(merge, "merge_reports", lambda *a, **k: check_report(merged(*a, **k)))


@pytest.fixture
def assert_valid_report() -> Iterator[Callable[[Any], None]]:
    """Check a report document against ``schemas/report.schema.json`` explicitly."""

    def check(document: Any) -> None:
        assert isinstance(document, dict) and document.get("schema") == "agentic_evals.report.v2"
        check_document(document)

    yield check
