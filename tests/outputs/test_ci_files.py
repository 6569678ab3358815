"""action.yml (composite GitHub Action) and .pre-commit-hooks.yaml work as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml
from outputs_helpers import REPO, SAMPLES, copy_sample


def test_the_action_runs_the_tool_with_annotations_and_a_step_summary(tmp_path: Path) -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    steps = {
        step.get("id") or step.get("name") or step.get("uses"): step
        for step in action["runs"]["steps"]
    }
    assert "github.action_path" in steps["Install agentic-evals"]["env"]["ACTION_PATH"]
    step = steps["evaluate"]
    assert "${{" not in step["run"]  # inputs come through the environment only
    copy_sample("outputs", tmp_path / "outputs")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "github-output"),
        "AE_COMMAND": "run",
        "AE_FIXTURE": "outputs/agentic_eval.json",
        "AE_REPORTS": "",
        "AE_OUTPUT": "report.json",
        "AE_JUNIT": "junit.xml",
        "AE_HTML": "report.html",
        "AE_ARGS": "--jobs 2 --progress plain",
    }
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "::error file=outputs/agentic_eval.json,line=45" in done.stdout
    assert (tmp_path / "junit.xml").is_file() and (tmp_path / "report.html").is_file()
    assert "readiness=USABLE_WITH_GAPS" in (tmp_path / "github-output").read_text()
    assert "outputs-sample is `USABLE_WITH_GAPS`" in (tmp_path / "summary.md").read_text()
    env["AE_COMMAND"] = "deploy"
    bad = subprocess.run(
        ["bash", "-c", step["run"]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "::error" in bad.stdout


def test_the_pre_commit_hook_validates_fixtures_only(tmp_path: Path) -> None:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["entry"] == "agentic-evals validate" and hook["language"] == "python"
    files = re.compile(hook["files"])
    assert files.search("fixtures/agentic_eval.json") and files.search(
        "skills/x/fixtures/agentic_eval.smoke.yaml"
    )
    assert not files.search("fixtures/regressions.json") and not files.search("agentic_eval.py")
    program, *args = shlex.split(hook["entry"])
    command = [str(Path(sys.executable).parent / program), *args]
    good = subprocess.run(
        [*command, str(SAMPLES / "demo-skill" / "agentic_eval.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    bad = subprocess.run(
        [*command, str(SAMPLES / "slop.json")], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "AE-SLOP-TRIALS" in bad.stderr
