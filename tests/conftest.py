"""Shared test setup: a calm terminal, derandomised hypothesis, every document checked.

Every JSON document the tool writes during a test (a run report, a merged
report, a coverage or audit document...) and every run or merge report it
builds is validated against its committed schema in ``schemas/``,
automatically: a test cannot produce an invalid report and pass.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, settings

from agentic_evals.judge import merge, report
from agentic_evals.judge.shard import SHARD_VARIABLES
from agentic_evals.reports import json_out
from agentic_evals.reports.model import Report

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
