"""load_fixture: the pipeline, the result object, and the drift guard."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.documents.pipeline import DriftError, Loaded
from agentic_evals.evidence import gates as load_module
from agentic_evals.evidence.gates import load_fixture

WriteFixture = Callable[..., Path]


def test_valid_fixture_loads(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    path = write_fixture(base_doc)
    result = load_fixture(path)
    assert isinstance(result, Loaded)
    assert result.ok and result.errors == [] and result.warnings == []
    assert result.model is not None and result.model.cases[0].name == "live-run"
    assert result.path == path
    assert result.document == base_doc
    assert result.source == path.read_bytes()


def test_yaml_fixture_loads(write_fixture: WriteFixture, base_doc: dict[str, Any]) -> None:
    result = load_fixture(write_fixture(base_doc, "agentic_eval.yaml"))
    assert result.ok and result.document == base_doc


def test_several_violations_are_all_listed_errors_first(write_fixture: WriteFixture) -> None:
    text = """\
version: 2
skill: demo
trials: "3"
cases:
  - name: a
    type: positive
    command: bash ../run.sh
    expected: {exit_code: 0}
    nmae: typo
  - name: a
    type: negative
    command: [bash, ../run.sh]
    expected: {exit_code: 1, exit_code: 2}
    cwd: /tmp
    supports_claims: [nothing]
"""
    result = load_fixture(write_fixture(text, "agentic_eval.yaml"))
    assert result.model is None and not result.ok
    found = [(f.code, f.pointer, f.severity) for f in result.findings]
    expected = [
        ("AE-SCHEMA-DUPLICATE", "/cases/1/expected", "error"),
        ("AE-SCHEMA-TYPE", "/trials", "error"),
        ("AE-SCHEMA-TYPE", "/cases/0/command", "error"),
        ("AE-SCHEMA-DUPLICATE", "/cases/1/name", "error"),
        ("AE-SCHEMA-REFERENCE", "/cases/1/supports_claims/0", "error"),
        ("AE-PATH-ESCAPE", "/cases/1/cwd", "error"),
        ("AE-SCHEMA-UNKNOWN", "/cases/0/nmae", "warning"),
    ]
    assert sorted(found) == sorted(expected)
    severities = [f.severity for f in result.findings]
    assert severities == sorted(severities, key=lambda s: s != "error")


def test_findings_carry_file_line_and_column(write_fixture: WriteFixture) -> None:
    text = '{\n  "version": 2,\n  "skill": "s",\n  "cases": [\n    {"name": "a"}\n  ]\n}\n'
    path = write_fixture(text)
    result = load_fixture(path)
    assert {f.file for f in result.findings} == {str(path)}
    required = [f for f in result.findings if f.code == "AE-SCHEMA-REQUIRED"]
    assert {(f.pointer, f.line, f.column) for f in required} == {("/cases/0", 5, 5)}
    assert required[0].render().startswith(f"{path}:5:5 /cases/0 AE-SCHEMA-REQUIRED error:")


def test_semantic_findings_are_located(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][1]["name"] = "live-run"
    path = write_fixture(base_doc)
    (finding,) = load_fixture(path).errors
    line = path.read_text().splitlines()[finding.line - 1]  # type: ignore[operator]
    assert '"name": "live-run"' in line


def test_unknown_keys_warn_by_default_and_reject_under_strict(
    write_fixture: WriteFixture, base_doc: dict[str, Any]
) -> None:
    base_doc["cases"][0]["notes"] = "free text"
    path = write_fixture(base_doc)
    lenient = load_fixture(path)
    assert lenient.ok and [f.code for f in lenient.warnings] == ["AE-SCHEMA-UNKNOWN"]
    strict = load_fixture(path, strict=True)
    assert strict.model is None
    assert [(f.code, f.severity) for f in strict.errors] == [("AE-SCHEMA-UNKNOWN", "error")]


@pytest.mark.parametrize(
    ("content", "code"),
    [(None, "AE-FILE-UNREADABLE"), (b"\xff\xfe", "AE-FILE-UNREADABLE"), (b"{", "AE-SCHEMA-SYNTAX")],
)
def test_unreadable_or_malformed_files(tmp_path: Path, content: bytes | None, code: str) -> None:
    path = tmp_path / "agentic_eval.json"
    if content is not None:
        path.write_bytes(content)
    result = load_fixture(path)
    assert result.model is None and result.document is None
    assert [(f.code, f.file) for f in result.findings] == [(code, str(path))]


@pytest.mark.parametrize("document", [None, [], "text", 3, {"cases": None}, {"cases": [None]}])
def test_documents_of_the_wrong_shape_give_findings(
    write_fixture: WriteFixture, document: object
) -> None:
    path = write_fixture(json.dumps(document))
    result = load_fixture(path)
    assert result.model is None and result.errors


def test_schema_and_model_drift_is_an_internal_error(
    write_fixture: WriteFixture, base_doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A schema that accepts anything stands in for one that drifted from the models.
    for name in ("FIXTURE", "GATED_FIXTURE"):
        kind = getattr(load_module, name)
        monkeypatch.setattr(load_module, name, dataclasses.replace(kind, schema=dict))
    base_doc["cases"][0]["expected"]["exit_code"] = "zero"
    with pytest.raises(DriftError, match="drifted"):
        load_fixture(write_fixture(base_doc))
