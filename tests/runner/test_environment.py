"""Trials inherit the user's environment; only the tool's own bootstrapped venv is taken out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, write_file

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner.environment import (
    PRIVATE_STAMP,
    base_environment,
    private_environment,
)

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def run(tmp_path: Path, cases: list[dict[str, Any]], environ: dict[str, str]) -> Any:
    document = fixture(cases, eval_kind="runner_selftest")
    loaded = load_fixture(write_file(tmp_path / "fixture.json", document))
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(environ=environ)).report


def test_the_private_environment_is_taken_out(tmp_path: Path) -> None:
    private = tmp_path / "tool" / ".venv"
    env = base_environment(
        {
            "PATH": f"{private}/bin:{SYSTEM_PATH}:{private}/bin/",
            "VIRTUAL_ENV": str(private),
            "VIRTUAL_ENV_PROMPT": "(.venv)",
            "PYTHONPYCACHEPREFIX": f"{private}/pycache",
            "HOME": "/home/u",
        },
        private,
    )
    assert env == {"PATH": SYSTEM_PATH, "HOME": "/home/u"}


def test_the_users_environment_is_kept(tmp_path: Path) -> None:
    private = tmp_path / "tool" / ".venv"
    user = {
        "PATH": f"/work/app/.venv/bin:{SYSTEM_PATH}",
        "VIRTUAL_ENV": "/work/app/.venv",
        "VIRTUAL_ENV_PROMPT": "(app)",
        "CONDA_PREFIX": "/opt/conda",
        "PYTHONPATH": "/work/app/src",
        "PYTHONHOME": "/opt/py",
    }
    assert base_environment(user, private) == user
    # A private environment that is also the user's own path prefix stays: only its own tree goes.
    assert base_environment(user, Path("/work/app/.ven")) == user
    assert base_environment(user, None) == user


def test_what_run_sh_changed_is_put_back_for_trials(tmp_path: Path) -> None:
    private = tmp_path / ".venv"
    env = base_environment(
        {
            "PATH": SYSTEM_PATH,
            "PYTHONPYCACHEPREFIX": f"{private}/pycache",
            "AGENTIC_EVALS_USER_PYTHONPYCACHEPREFIX": "/home/u/.cache/py",
            "AGENTIC_EVALS_USER_PYTHONDONTWRITEBYTECODE": "1",
        },
        private,
    )
    assert env == {
        "PATH": SYSTEM_PATH,
        "PYTHONPYCACHEPREFIX": "/home/u/.cache/py",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def test_run_sh_keeps_the_users_values(tmp_path: Path) -> None:
    # run.sh itself, on a copy whose bootstrap is already done: what does the tool get?
    repo = Path(__file__).resolve().parents[2]
    script = (repo / "run.sh").read_text()
    body = script.split("\nbootstrap\n", 1)[1].split('case "${1:-}" in', 1)[0]
    probe = tmp_path / "probe.sh"
    probe.write_text(
        "set -euo pipefail\nHERE=/tool\nVENV=/tool/.venv\n"
        + body
        + "env | grep -E '^(AGENTIC|PYTHON)' | sort\n"
    )
    env = {"PATH": SYSTEM_PATH, "PYTHONDONTWRITEBYTECODE": "1"}
    shown = subprocess.run(
        ["bash", str(probe)], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown == [
        "AGENTIC_EVALS_USER_PYTHONDONTWRITEBYTECODE=1",
        "AGENTIC_EVALS_USER_PYTHONPATH=",
        "PYTHONPATH=/tool",
        "PYTHONPYCACHEPREFIX=/tool/.venv/pycache",
    ]
    given = dict(line.split("=", 1) for line in shown)
    restored = base_environment({**given, "PATH": SYSTEM_PATH}, Path("/tool/.venv"))
    # The tool's own checkout on PYTHONPATH is not the user's: the trial gets none.
    assert restored == {"PATH": SYSTEM_PATH, "PYTHONDONTWRITEBYTECODE": "1"}
    with_users = {**env, "PYTHONPATH": "/user/lib"}
    shown = subprocess.run(
        ["bash", str(probe)], env=with_users, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "PYTHONPATH=/tool:/user/lib" in shown
    given = dict(line.split("=", 1) for line in shown)
    restored = base_environment({**given, "PATH": SYSTEM_PATH}, Path("/tool/.venv"))
    assert restored["PYTHONPATH"] == "/user/lib"


def make_user_venv(where: Path) -> Path:
    """A virtual environment holding a module of its own, ``userdep``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    site = next((where / "lib").glob("python*/site-packages"))
    (site / "userdep.py").write_text("ANSWER = 42\n")
    return where


def test_a_case_imports_a_module_of_the_users_activated_venv(tmp_path: Path) -> None:
    venv = make_user_venv(tmp_path / "user-venv")
    importing = case(
        "imports",
        command=["python3", "-c", "import userdep, sys; print(userdep.ANSWER, sys.prefix)"],
        expected={"exit_code": 0, "stdout_contains": ["42"]},
    )
    environ = {"PATH": f"{venv}/bin:{SYSTEM_PATH}", "VIRTUAL_ENV": str(venv)}
    report = run(tmp_path, [importing], environ)
    assert report.cases[0].outcome == "PASS", report.cases[0].problems
    assert report.cases[0].trials[0].stdout.split() == ["42", str(venv)]
    # And without it activated, the same case fails, and says which interpreter it had.
    bare = run(tmp_path, [importing], {"PATH": SYSTEM_PATH})
    assert bare.cases[0].outcome == "FAIL"
    first, hint = bare.cases[0].problems[:2]
    assert (first.code, hint.code) == ("EXIT_CODE", "MISSING_DEPENDENCY")
    assert "No module named 'userdep'" in hint.message
    assert f"PATH={SYSTEM_PATH}" in hint.message and "no VIRTUAL_ENV" in hint.message
    assert "python3 = /" in hint.message and "(its command's interpreter)" in hint.message


def test_the_tools_own_venv_does_not_leak_into_trials(tmp_path: Path) -> None:
    private = private_environment()
    if private is None:
        pytest.skip(f"the tests do not run in a bootstrapped environment (no {PRIVATE_STAMP})")
    assert Path(sys.prefix) == private
    probe = case(
        "probe",
        command=["bash", "-c", 'echo "[${VIRTUAL_ENV:-}]"; command -v python3; echo "$PATH"'],
    )
    # As if the tool's venv had been activated in the shell that started the run.
    environ = {
        "PATH": f"{private}/bin{os.pathsep}{SYSTEM_PATH}",
        "VIRTUAL_ENV": str(private),
        "PYTHONPYCACHEPREFIX": f"{private}/pycache",
    }
    report = run(tmp_path, [probe], environ)
    venv, python3, path = report.cases[0].trials[0].stdout.splitlines()
    assert venv == "[]"
    assert not python3.startswith(str(private))
    assert path == SYSTEM_PATH


def test_a_missing_command_names_the_path(tmp_path: Path) -> None:
    missing = case("missing", command=["bash", "-c", "no-such-tool-13 --version"])
    report = run(tmp_path, [missing], {"PATH": SYSTEM_PATH})
    first, hint = report.cases[0].problems
    assert (first.code, hint.code) == ("EXIT_CODE", "MISSING_DEPENDENCY")
    assert "no-such-tool-13: command not found" in hint.message
    assert (
        "python3 = " in hint.message
        and "(on its PATH)" in hint.message
        and f"PATH={SYSTEM_PATH}" in hint.message
    )


def test_a_program_that_cannot_start_names_the_path(tmp_path: Path) -> None:
    report = run(tmp_path, [case("absent", command=["no-such-program-13"])], {"PATH": "/nowhere"})
    codes = [p.code for p in report.cases[0].problems]
    assert codes == ["EXEC_FAILED", "MISSING_DEPENDENCY"]
    assert "PATH=/nowhere" in report.cases[0].problems[1].message


def test_no_hint_on_a_pass_or_an_unrelated_failure(tmp_path: Path) -> None:
    expected_failure = case(
        "expects-the-import-error",
        type="negative",
        command=["python3", "-c", "import no_such_module_13"],
        expected={"exit_code": 1, "stderr_contains": ["ModuleNotFoundError"]},
    )
    plain_failure = case("fails", command=["bash", "-c", "echo broken >&2; exit 3"])
    report = run(tmp_path, [expected_failure, plain_failure], {"PATH": SYSTEM_PATH})
    assert report.cases[0].outcome == "PASS" and report.cases[0].problems == []
    assert [p.code for p in report.cases[1].problems] == ["EXIT_CODE"]
    assert json.loads(report.model_dump_json())["cases"][1]["problems"][0]["code"] == "EXIT_CODE"
