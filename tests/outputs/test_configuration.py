"""Configuration from agentic-evals.toml or [tool.agentic-evals]: found upward, flags win."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from outputs_helpers import copy_sample

from agentic_evals.cli import cli


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy_sample("demo-skill", tmp_path / "skill")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "sub" / "deeper")
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["run", *args, "--progress", "none"])
    return result.exit_code, result.output


def test_pyproject_table_is_found_upward_and_recorded(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.agentic-evals]\njobs = 2\noutput = "out/report.json"\njunit-xml = "out/j.xml"\n'
    )
    code, output = run(str(project / "skill" / "agentic_eval.json"))
    assert code == 0, output
    report = json.loads((project / "out" / "report.json").read_text())  # relative to the file
    assert (project / "out" / "j.xml").is_file()
    configuration = report["configuration"]
    assert configuration["file"] == str(project / "pyproject.toml")
    assert configuration["values"]["jobs"] == 2 and configuration["sources"]["jobs"] == "config"
    assert configuration["sources"]["timeout_seconds"] == "default"


def test_flags_win_and_no_config_skips_the_file(project: Path) -> None:
    (project / "agentic-evals.toml").write_text('jobs = 2\noutput = "from-config.json"\n')
    (project / "pyproject.toml").write_text("[tool.agentic-evals]\njobs = 9\n")
    target = project / "flag.json"
    code, _ = run(str(project / "skill" / "agentic_eval.json"), "-o", str(target), "-j", "1")
    assert code == 0
    configuration = json.loads(target.read_text())["configuration"]
    assert configuration["file"] == str(project / "agentic-evals.toml")  # it wins in one folder
    assert configuration["sources"]["output"] == "flag" and configuration["values"]["jobs"] == 1
    code, _ = run(str(project / "skill" / "agentic_eval.json"), "-o", str(target), "--no-config")
    configuration = json.loads(target.read_text())["configuration"]
    assert configuration["file"] is None and configuration["enabled"] is False
    assert not (project / "from-config.json").exists()


def test_a_pyproject_without_the_table_does_not_count(project: Path) -> None:
    (project / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (project / "agentic-evals.toml").write_text("jobs = 2\n")
    target = project / "r.json"
    run(str(project / "skill" / "agentic_eval.json"), "-o", str(target))
    assert json.loads(target.read_text())["configuration"]["values"]["jobs"] == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('jobs = "four"', "key 'jobs'"),
        ('colour = "always"', "unknown key 'colour'; did you mean 'color'?"),
        ('progress = "loud"', "key 'progress'"),
        ("jobs = 0", "key 'jobs'"),
        ("jobs = [", "not valid TOML"),
    ],
)
def test_invalid_configuration_is_a_clean_error_naming_file_and_key(
    project: Path, text: str, message: str
) -> None:
    (project / "agentic-evals.toml").write_text(text + "\n")
    code, output = run(str(project / "skill" / "agentic_eval.json"))
    assert code == 2
    assert str(project / "agentic-evals.toml") in output and message in output
    assert "Traceback" not in output
