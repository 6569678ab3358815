"""The ``history`` commands through the CLI: tables, ``-o`` JSON shapes, exit codes, and
``history import`` rebuilding the history from report files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result
from history_helpers import ALPHA, BETA, variant, write_reports

from agentic_evals.cli import cli

REPO = Path(__file__).resolve().parents[2]
SAME = {"test_source_sha256": "a" * 64, "oracle_sha256": "b" * 64}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((REPO / "schemas" / f"{name}.schema.json").read_text())
    )


@pytest.fixture
def recorded(base_report: dict[str, Any], tmp_path: Path) -> tuple[str, list[Path]]:
    """A history rebuilt from five report files with history import: alpha is flaky."""
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    outcomes = ["PASS", "FAIL", "PASS", "PASS", "FAIL"]
    reports = [
        variant(base_report, f"run-{n}", n, outcomes={ALPHA: outcome}, hashes={ALPHA: SAME})
        for n, outcome in enumerate(outcomes, 1)
    ]
    paths = write_reports(tmp_path / "reports", *reports)
    receipt = tmp_path / "import.json"
    result = invoke("history", "import", *map(str, paths), "--history", url, "-o", str(receipt))
    assert result.exit_code == 0, result.output
    assert "5 recorded, 0 already recorded, 0 conflict(s), 0 invalid" in result.stdout
    document = json.loads(receipt.read_text())
    schema("history_import").validate(document)
    assert [entry["status"] for entry in document["reports"]] == ["recorded"] * 5
    return url, paths


def test_list_prints_a_table_and_writes_runs(
    recorded: tuple[str, list[Path]], tmp_path: Path
) -> None:
    url, _ = recorded
    out = tmp_path / "runs.json"
    result = invoke("history", "list", "--history", url, "--limit", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "3 run(s), newest first" in result.stdout
    assert (
        result.stdout.index("run-5") < result.stdout.index("run-4") < result.stdout.index("run-3")
    )
    document = json.loads(out.read_text())
    assert list(document) == ["runs"]
    assert [run["run_id"] for run in document["runs"]] == ["run-5", "run-4", "run-3"]
    schema("history_list").validate(document)
    assert invoke("history", "list", "--history", url, "--skill", "none").stdout.endswith(
        "no runs recorded\n"
    )


def test_flaky_writes_flaky_cases(recorded: tuple[str, list[Path]], tmp_path: Path) -> None:
    url, _ = recorded
    out = tmp_path / "flaky.json"
    result = invoke("history", "flaky", "--history", url, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "1 flaky case(s)" in result.stdout and ALPHA in result.stdout
    document = json.loads(out.read_text())
    assert list(document) == ["flaky"]
    assert document["flaky"][0]["case_id"] == ALPHA
    assert document["flaky"][0]["flips"] == 3
    schema("history_flaky").validate(document)
    narrow = invoke("history", "flaky", "--history", url, "--window", "2", "-o", "-")
    assert json.loads(narrow.stdout)["flaky"][0]["flips"] == 1


def test_show_trend_and_prune_through_the_cli(
    recorded: tuple[str, list[Path]], tmp_path: Path
) -> None:
    url, _ = recorded
    shown = invoke("history", "show", "last~1", "--history", url, "-o", str(tmp_path / "s.json"))
    assert shown.exit_code == 0, shown.output
    assert "run run-4:" in shown.stdout and BETA in shown.stdout and "hist.works" in shown.stdout
    schema("history_show").validate(json.loads((tmp_path / "s.json").read_text()))
    trend = invoke("history", "trend", ALPHA, "--history", url, "-o", str(tmp_path / "t.json"))
    assert trend.exit_code == 0, trend.output
    assert "trend of case hist::alpha: 5 run(s)" in trend.stdout
    assert "2/2 1.00 [0.34, 1.00]" in trend.stdout
    document = json.loads((tmp_path / "t.json").read_text())
    schema("history_trend").validate(document)
    assert [p["outcome"] for p in document["points"]] == ["PASS", "FAIL", "PASS", "PASS", "FAIL"]
    pruned = invoke("history", "prune", "--keep", "2", "--history", url, "-o", "-")
    assert pruned.exit_code == 0, pruned.output
    receipt = json.loads(pruned.stdout)
    schema("history_prune").validate(receipt)
    assert receipt["removed"] == ["run-3", "run-2", "run-1"]
    assert "pruned 3 run(s), kept 2" in pruned.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "nope"], "no run 'nope' in the history"),
        (["show", "run-"], "matches 5 runs"),
        (["show", "last~9"], "holds 5 run(s)"),
        (["trend", "hist::missing"], "no case or claim 'hist::missing'"),
    ],
)
def test_unknown_runs_and_targets_exit_2(
    recorded: tuple[str, list[Path]], args: list[str], message: str
) -> None:
    url, _ = recorded
    result = invoke("history", *args, "--history", url)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_an_unusable_history_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("no database here")
    for url, message in (
        (f"sqlite:///{bad}", "file is not a database"),
        ("mysql://x", "unsupported history URL"),
        (f"sqlite:///{tmp_path}/h.sqlite?timeout=soon", "timeout must be a number"),
    ):
        result = invoke("history", "list", "--history", url)
        assert result.exit_code == 2, result.output
        assert message in result.stderr


def test_import_rebuilds_idempotently_and_names_conflicts_and_invalid_files(
    recorded: tuple[str, list[Path]], tmp_path: Path, base_report: dict[str, Any]
) -> None:
    url, paths = recorded
    again = invoke("history", "import", *map(str, paths), "--history", url)
    assert again.exit_code == 0
    assert "0 recorded, 5 already recorded" in again.stdout
    (changed,) = write_reports(
        tmp_path / "changed", variant(base_report, "run-1", 1, outcomes={BETA: "FAIL"})
    )
    conflict = invoke("history", "import", str(changed), "--history", url)
    assert conflict.exit_code == 1
    assert f"{changed}: run run-1 is already recorded with a different report" in conflict.stdout
    shown = invoke("history", "show", "run-1", "--history", url, "-o", "-")
    assert {c["case_id"]: c["outcome"] for c in json.loads(shown.stdout)["cases"]}[BETA] == "PASS"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**base_report, "run_id": "run-x", "cases": [{"case_id": 3}]}))
    twice = tmp_path / "twice.json"
    doubled = variant(base_report, "run-y", 9)
    doubled["capability_readiness"]["claims"] *= 2
    twice.write_text(json.dumps(doubled))
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    invalid = invoke(
        "history", "import", str(broken), str(twice), str(not_json), str(paths[0]), "--history", url
    )
    assert invalid.exit_code == 2
    assert f"{broken}: /cases/0/case_id: Input should be a valid string" in invalid.stdout
    assert f"{not_json}: not JSON" in invalid.stdout
    assert f"{twice}: /capability_readiness/claims/1/id: 'hist.works' appears twice" in (
        invalid.stdout
    )
    assert "0 recorded, 1 already recorded, 0 conflict(s), 3 invalid" in invalid.stdout


def test_import_refuses_to_write_its_receipt_over_an_input(
    recorded: tuple[str, list[Path]],
) -> None:
    url, paths = recorded
    before = paths[0].read_text()
    result = invoke("history", "import", str(paths[0]), "--history", url, "-o", str(paths[0]))
    assert result.exit_code == 2
    assert "it is an input" in result.stderr
    assert paths[0].read_text() == before
