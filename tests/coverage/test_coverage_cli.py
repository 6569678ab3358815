"""``coverage show`` and ``coverage audit`` on the command line: exit codes and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from builders import PROD, SCHEMAS, make_skill
from click.testing import CliRunner
from coverage_helpers import bare_case, case, fixture, seam

from agentic_evals.cli import cli


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def check(document: Any, schema_name: str) -> None:
    schema = json.loads((SCHEMAS / schema_name).read_text())
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(document)]
    assert errors == []


@pytest.fixture
def ready(tmp_path: Path) -> Path:
    return make_skill(
        tmp_path / "ready", files=PROD, fixture=fixture([case("c", "s")], [seam("s")])
    )


@pytest.fixture
def weak(tmp_path: Path) -> Path:
    return make_skill(
        tmp_path / "weak", files=PROD, fixture=fixture([bare_case("b", "s")], [seam("s")])
    )


@pytest.fixture
def none_critical(tmp_path: Path) -> Path:
    return make_skill(tmp_path / "none", files=PROD, fixture=fixture([case("c")]))


def test_show_exits_0_when_ready_and_writes_valid_json(ready: Path, tmp_path: Path) -> None:
    output = tmp_path / "out" / "coverage.json"
    result = invoke("coverage", "show", str(ready), "-o", str(output))
    assert result.exit_code == 0, result.output
    assert "verdict: READY (exit 0)" in result.output
    document = json.loads(output.read_text())
    check(document, "coverage.schema.json")
    assert document["schema"] == "agentic_evals.coverage.v1"
    assert document["summary"]["verdict"] == "READY"
    assert set(document["seams"][0]) >= {
        "seam_id",
        "covered",
        "weak_only",
        "present_evidence",
        "missing_evidence",
        "covering_cases",
        "has_live_coverage",
        "incident_regressions",
    }


def test_show_exits_1_when_not_ready_unless_report_only(weak: Path) -> None:
    result = invoke("coverage", "show", str(weak))
    assert result.exit_code == 1
    assert "WEAK-ONLY" in result.output and "verdict: NOT_READY (exit 1)" in result.output
    assert invoke("coverage", "show", str(weak), "--report-only").exit_code == 0


def test_show_exits_0_without_critical_seams(none_critical: Path) -> None:
    result = invoke("coverage", "show", str(none_critical))
    assert result.exit_code == 0
    assert "NO_CRITICAL_SEAMS_DECLARED" in result.output


def test_show_exits_2_for_a_missing_folder_or_no_fixture(tmp_path: Path) -> None:
    missing = invoke("coverage", "show", str(tmp_path / "absent"))
    assert missing.exit_code == 2 and "not a folder" in missing.output
    (tmp_path / "empty" / "fixtures").mkdir(parents=True)
    (tmp_path / "empty" / "fixtures" / "eval.json").write_text("{}")
    empty = invoke("coverage", "show", str(tmp_path / "empty"))
    assert empty.exit_code == 2 and "no fixture" in empty.output


def test_show_exits_2_for_a_fixture_that_cannot_be_parsed(ready: Path, tmp_path: Path) -> None:
    (ready / "fixtures" / "agentic_eval_live.json").write_text("[1,")
    output = tmp_path / "coverage.json"
    result = invoke("coverage", "show", str(ready), "-o", str(output))
    assert result.exit_code == 2
    assert "AE-COV-FIXTURE-UNREADABLE" in result.output
    assert json.loads(output.read_text())["summary"]["verdict"] == "NOT_READY"


def test_show_json_on_stdout_moves_the_summary_to_stderr(ready: Path) -> None:
    result = CliRunner().invoke(cli, ["coverage", "show", str(ready), "-o", "-"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["summary"]["verdict"] == "READY"
    assert "verdict: READY" in result.stderr


def test_audit_exits_1_when_a_skill_is_not_ready(
    ready: Path, weak: Path, none_critical: Path, tmp_path: Path
) -> None:
    (tmp_path / "no-fixtures").mkdir()
    output = tmp_path / "audit.json"
    result = invoke("coverage", "audit", str(tmp_path), "-o", str(output))
    assert result.exit_code == 1, result.output
    document = json.loads(output.read_text())
    check(document, "coverage_audit.schema.json")
    assert [s["skill"] for s in document["skills"]] == ["none", "ready", "weak"]
    assert document["skipped"] == ["no-fixtures"]
    summary = document["summary"]
    assert summary["verdicts"] == {"READY": 1, "NOT_READY": 1, "NO_CRITICAL_SEAMS_DECLARED": 1}
    assert summary["not_ready"] == ["weak"] and summary["critical_gaps"] == 1
    assert invoke("coverage", "audit", str(tmp_path), "--report-only").exit_code == 0


def test_audit_exits_0_when_no_skill_is_not_ready(ready: Path, none_critical: Path) -> None:
    result = invoke("coverage", "audit", str(ready.parent))
    assert result.exit_code == 0
    assert "verdicts: READY 1, NOT_READY 0, NO_CRITICAL_SEAMS_DECLARED 1" in result.output


def test_audit_exits_2_for_a_missing_root_or_no_skill(tmp_path: Path) -> None:
    assert invoke("coverage", "audit", str(tmp_path / "absent")).exit_code == 2
    (tmp_path / "plain").mkdir()
    result = invoke("coverage", "audit", str(tmp_path))
    assert result.exit_code == 2 and "no immediate subfolder" in result.output


def test_coverage_help_has_examples() -> None:
    for args in (["coverage"], ["coverage", "show"], ["coverage", "audit"]):
        result = invoke(*args, "--help")
        assert result.exit_code == 0 and "Example: agentic-evals coverage" in result.output
