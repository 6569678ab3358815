"""``validate``, ``schema``, help texts and the summary's colour rules."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import click
import jsonschema
import pytest
from click.testing import CliRunner

from agentic_evals.cli import cli
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.terminal import colour_enabled

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "fixtures" / "samples"


def test_validate_writes_every_finding_with_code_and_pointer(tmp_path: Path) -> None:
    output = tmp_path / "findings.json"
    result = CliRunner().invoke(cli, ["validate", str(SAMPLES / "slop.json"), "-o", str(output)])
    assert result.exit_code == 2
    document = json.loads(output.read_text())
    assert document["valid"] is False
    found = {(f["code"], f["pointer"]) for f in document["findings"]}
    assert {
        ("AE-SLOP-TRIALS", "/trials"),
        ("AE-SLOP-TRIVIAL", "/cases/0/command"),
        ("AE-SLOP-TRIVIAL", "/cases/1/command"),
    } <= found
    assert {"AE-SLOP-NO-NEGATIVE", "AE-SLOP-NO-REAL-WORLD"} <= {c for c, _ in found}
    assert all(set(f) >= {"code", "severity", "pointer", "message"} for f in document["findings"])


def test_validate_accepts_a_sound_fixture_and_many_paths(tmp_path: Path) -> None:
    output = tmp_path / "findings.json"
    paths = [
        str(REPO / "fixtures" / "agentic_eval.json"),
        str(SAMPLES / "demo-skill" / "agentic_eval.json"),
    ]
    result = CliRunner().invoke(cli, ["validate", *paths, "-o", str(output)])
    assert result.exit_code == 0, result.output
    document = json.loads(output.read_text())
    assert document["valid"] is True and document["findings"] == []
    assert [f["path"] for f in document["files"]] == paths


def test_validate_walks_folders_and_skips_other_documents(tmp_path: Path) -> None:
    tree = tmp_path / "skills"
    (tree / "a" / "fixtures").mkdir(parents=True)
    (tree / "b" / "fixtures").mkdir(parents=True)
    good = json.loads((SAMPLES / "failing-required.json").read_text())
    (tree / "a" / "fixtures" / "agentic_eval.json").write_text(json.dumps(good))
    (tree / "b" / "fixtures" / "custom-name.json").write_text(json.dumps(good))
    (tree / "b" / "fixtures" / "agentic_eval_live.yaml").write_text("version: 2\n")
    (tree / "b" / "fixtures" / "regressions.json").write_text('{"schema": "x", "cases": []}')
    (tree / "b" / "fixtures" / "notes.json").write_text('{"anything": 1}')
    output = tmp_path / "findings.json"
    result = CliRunner().invoke(cli, ["validate", str(tree), "-o", str(output)])
    assert result.exit_code == 2
    document = json.loads(output.read_text())
    verdicts = {Path(f["path"]).name: f["valid"] for f in document["files"]}
    assert verdicts == {
        "agentic_eval.json": True,
        "custom-name.json": True,
        "agentic_eval_live.yaml": False,
    }
    assert sorted(Path(p).name for p in document["skipped"]) == ["notes.json", "regressions.json"]
    assert "3 fixture(s) checked, 1 rejected" in result.stderr


def test_validate_of_a_folder_without_fixtures_is_invalid(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "0 fixture(s) checked" in result.stderr


def test_unknown_key_is_a_warning_and_an_error_under_strict(tmp_path: Path) -> None:
    document = json.loads((SAMPLES / "failing-required.json").read_text())
    document["cases"][0]["expectd"] = {}
    fixture = tmp_path / "f.json"
    fixture.write_text(json.dumps(document))
    lenient = CliRunner().invoke(cli, ["validate", str(fixture)])
    assert lenient.exit_code == 0
    assert "AE-SCHEMA-UNKNOWN warning" in lenient.stderr
    strict = CliRunner().invoke(cli, ["validate", "--strict", str(fixture)])
    assert strict.exit_code == 2
    assert "AE-SCHEMA-UNKNOWN error" in strict.stderr


def test_every_committed_schema_can_be_printed() -> None:
    from agentic_evals.cli.schemas import SCHEMAS, spec

    assert {spec(kind).file for kind in SCHEMAS} == {
        p.name for p in (REPO / "schemas").glob("*.json")
    }
    assert all(spec(kind).file == f"{kind}.schema.json" for kind in SCHEMAS)


@pytest.mark.parametrize("kind", ["fixture", "report", "regressions", "coverage"])
def test_schema_command_prints_the_committed_schema(kind: str, tmp_path: Path) -> None:
    output = tmp_path / "schema.json"
    result = CliRunner().invoke(cli, ["schema", kind, "-o", str(output)])
    assert result.exit_code == 0
    printed = json.loads(output.read_text())
    committed = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text())
    assert printed == committed
    assert printed["$id"].endswith(f"/{kind}.schema.json")
    jsonschema.Draft202012Validator.check_schema(printed)


@pytest.mark.parametrize("command", ["run", "validate", "schema"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"])
    assert result.exit_code == 0
    assert "Example: agentic-evals " + command in result.output


def test_bad_flag_is_a_usage_error() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "agentic_evals", "run", "--no-such-flag", "x.json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "No such option" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_enabled("auto", Tty()) is True
    assert colour_enabled("auto", io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert colour_enabled("auto", Tty()) is False


def test_summary_paints_verdicts_only_when_asked(tmp_path: Path) -> None:
    from agentic_evals.evaluation.evaluate import evaluate
    from agentic_evals.reports.text import render_summary

    report = evaluate(load_fixture(SAMPLES / "failing-required.json")).report
    plain = render_summary(report, colour=False, exit_code=1)
    painted = render_summary(report, colour=True, exit_code=1)
    assert "\x1b[" not in plain
    assert "readiness: NOT_READY (exit 1)" in plain
    assert click.style("NOT_READY", fg="red", bold=True) in painted
    assert click.unstyle(painted) == plain


def test_a_long_run_lists_only_the_cases_that_need_attention(tmp_path: Path) -> None:
    cases = [
        {"name": f"c{i}", "type": "positive", "command": ["true" if i != 7 else "false"],
         "expected": {"exit_code": 0}}
        for i in range(45)
    ]  # fmt: skip
    fixture = tmp_path / "long.json"
    fixture.write_text(
        json.dumps({"version": 2, "skill": "long", "eval_kind": "runner_selftest", "trials": 2,
                    "cases": cases})
    )  # fmt: skip
    result = CliRunner().invoke(cli, ["run", str(fixture)])
    assert result.exit_code == 1
    case_lines = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert case_lines[0].split()[:2] == ["FAIL", "c7"]
    assert "  ... and 44 more cases passed every trial" in result.stdout
    assert "cases: 45 (1 FAIL, 44 PASS)" in result.stdout


def test_summary_says_which_claims_are_not_proven_and_why() -> None:
    fixture = REPO / "tests" / "claims" / "selftest" / "det_only_missing_live.json"
    result = CliRunner().invoke(cli, ["run", str(fixture)])
    assert result.exit_code == 1
    assert "claims: 0/1 critical PROVEN; capability readiness USABLE_WITH_GAPS" in result.stdout
    # Its deterministic cases check exit codes only: they pass on the null trial.
    assert (
        "  NOT_ESTABLISHED demo.core [critical] (missing deterministic, live_e2e)" in result.stdout
    )
    assert result.stdout.rstrip().endswith("readiness: USABLE_WITH_GAPS (exit 1)")
