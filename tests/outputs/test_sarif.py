"""SARIF 2.1.0 from validate, audit-skills, coverage, regressions and a run report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from outputs_helpers import REPO, SAMPLES, SHARED

from agentic_evals.cli import cli
from agentic_evals.reports.model import Report
from agentic_evals.reports.render import render
from agentic_evals.rule_texts import rule_text

SCHEMA = SHARED / "reference" / "sarif-2.1.0" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Draft4Validator:
    if not SCHEMA.is_file():
        pytest.skip(f"the SARIF schema is not at {SCHEMA}")
    return jsonschema.Draft4Validator(json.loads(SCHEMA.read_text()))


def valid(text: str, validator: jsonschema.Draft4Validator) -> dict[str, Any]:
    log = json.loads(text)
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(log)]
    assert not errors, errors
    assert log["version"] == "2.1.0"
    return log  # type: ignore[no-any-return]


def sarif_of(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*args, "--format", "sarif"], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_validate_sarif_names_each_rule_with_its_text_and_location(
    tmp_path: Path, sarif_validator: jsonschema.Draft4Validator
) -> None:
    fixture = Path(shutil.copy(SAMPLES / "slop.json", tmp_path / "slop.json"))
    code, text = sarif_of("validate", str(fixture))
    assert code == 2
    log = valid(text, sarif_validator)
    run = log["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert {"AE-SLOP-TRIALS", "AE-SLOP-TRIVIAL"} <= set(rules)
    assert rules["AE-SLOP-TRIALS"]["shortDescription"]["text"] == rule_text("AE-SLOP-TRIALS")
    trivial = [r for r in run["results"] if r["ruleId"] == "AE-SLOP-TRIVIAL"]
    region = trivial[0]["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"].endswith("slop.json")
    assert region["region"]["startLine"] > 1
    assert all(r["ruleIndex"] == list(rules).index(r["ruleId"]) for r in run["results"])


def test_fingerprints_survive_lines_moving(
    tmp_path: Path, sarif_validator: jsonschema.Draft4Validator
) -> None:
    fixture = tmp_path / "slop.json"
    text = (SAMPLES / "slop.json").read_text()
    fixture.write_text(text)
    before = valid(sarif_of("validate", str(fixture))[1], sarif_validator)
    fixture.write_text("\n\n\n" + text)
    after = valid(sarif_of("validate", str(fixture))[1], sarif_validator)

    def prints(log: dict[str, Any]) -> list[tuple[str, int]]:
        return [
            (r["partialFingerprints"]["agenticEvalsFinding/v1"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in log["runs"][0]["results"]
        ]  # fmt: skip

    assert [p for p, _ in prints(before)] == [p for p, _ in prints(after)]
    assert [line + 3 for _, line in prints(before)] == [line for _, line in prints(after)]


def test_audit_skills_coverage_and_regressions_give_valid_sarif(
    sarif_validator: jsonschema.Draft4Validator, tmp_path: Path
) -> None:
    tree = SHARED / "corpus" / "skills-tree-2026-01"
    if not tree.is_dir():
        pytest.skip("the shared skill tree corpus is not there")
    code, text = sarif_of("audit-skills", str(tree))
    log = valid(text, sarif_validator)
    assert code in (0, 1) and log["runs"][0]["results"]
    assert all(r["ruleId"].startswith("EVAL") for r in log["runs"][0]["results"])
    corpus = SHARED / "corpus" / "agent-skills"
    code, text = sarif_of("coverage", "audit", str(corpus))
    log = valid(text, sarif_validator)
    assert code in (0, 1) and log["runs"][0]["results"]
    out = tmp_path / "regressions.sarif"
    result = CliRunner().invoke(
        cli, ["regressions", "show", str(REPO), "--format", "sarif", "-o", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    valid(out.read_text(), sarif_validator)


def test_uncovered_seams_and_regression_issues_are_results(
    tmp_path: Path, sarif_validator: jsonschema.Draft4Validator
) -> None:
    skill = tmp_path / "skill"
    (skill / "fixtures").mkdir(parents=True)
    fixture = {
        "version": 2, "skill": "s", "trials": 2, "eval_kind": "runner_selftest",
        "seams": [{"seam_id": "parse", "seam_type": "parser", "criticality": "critical",
                   "required_evidence": ["deterministic"]}],
        "cases": [{"name": "c", "type": "negative", "command": ["true"], "seams": ["parse"],
                   "expected": {"exit_code": 0}}],
    }  # fmt: skip
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(fixture, indent=1))
    registry = {
        "schema": "agentic_evals.regressions.v1",
        "regressions": [{"regression_id": "r1", "retained_case": "gone"}],
    }
    (skill / "fixtures" / "regressions.json").write_text(json.dumps(registry, indent=1))
    log = valid(sarif_of("coverage", "show", str(skill))[1], sarif_validator)
    uncovered = [r for r in log["runs"][0]["results"] if r["ruleId"] == "AE-COV-UNCOVERED-SEAM"]
    assert uncovered and uncovered[0]["level"] == "error"
    assert (
        uncovered[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    )  # the seam object
    log = valid(sarif_of("regressions", "show", str(skill))[1], sarif_validator)
    ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert {"UNPROTECTED", "NEVER_PROVEN"} <= ids


def test_a_run_report_renders_its_failing_cases_as_sarif(
    mixed_report: Report, sarif_validator: jsonschema.Draft4Validator
) -> None:
    log = valid(render(mixed_report, "sarif"), sarif_validator)
    results = log["runs"][0]["results"]
    by_rule = {r["ruleId"]: r for r in results}
    assert by_rule["EXIT_CODE"]["level"] == "error"
    assert by_rule["BLOCKED_MARKER"]["level"] == "warning"
    assert by_rule["EXIT_CODE"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 45


def test_every_finding_code_has_a_rule_text() -> None:
    from agentic_evals import codes

    finding_codes = [
        value
        for name, value in vars(codes).items()
        if name.isupper() and isinstance(value, str) and value.startswith(("AE-", "EVAL"))
    ]
    assert len(finding_codes) > 40
    assert [code for code in finding_codes if not rule_text(code)] == []
    assert rule_text("AE-NO-SUCH-CODE") is None
