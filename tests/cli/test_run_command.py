"""End-to-end behaviour of ``agentic-evals run`` through the real CLI."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from click.testing import CliRunner

from agentic_evals.cli import cli

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "fixtures" / "samples"


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A private copy of the sample fixtures, so tests never write into the repo."""
    target = tmp_path / "samples"
    shutil.copytree(SAMPLES, target, ignore=shutil.ignore_patterns("out"))
    return target


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_rejected_fixture_lists_every_violation_and_keeps_output(samples: Path) -> None:
    output = samples / "report.json"
    output.write_text("previous report")
    result = invoke("run", str(samples / "slop.json"), "--output", str(output))
    assert result.exit_code == 2
    for code, pointer in [
        ("AE-SLOP-TRIALS", "/trials"),
        ("AE-SLOP-NO-NEGATIVE", "/cases"),
        ("AE-SLOP-NO-REAL-WORLD", "/cases"),
        ("AE-SLOP-TRIVIAL", "/cases/0/command"),
        ("AE-SLOP-TRIVIAL", "/cases/1/command"),
    ]:
        assert any(code in line and pointer in line for line in result.stderr.splitlines()), (
            code,
            pointer,
            result.stderr,
        )
    assert "nothing was run" in result.stderr
    assert output.read_text() == "previous report"


def test_ready_fixture_exits_0_with_a_valid_report(
    samples: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    output = samples / "demo.json"
    result = invoke("run", str(samples / "demo-skill" / "agentic_eval.json"), "-o", str(output))
    assert result.exit_code == 0, result.output
    assert "readiness: READY (exit 0)" in result.stdout
    report = json.loads(output.read_text())
    assert_valid_report(report)
    assert report["readiness"] == "READY"
    assert report["trial_count"] == 4
    assert [c["outcome"] for c in report["cases"]] == ["PASS", "PASS"]
    fixture_bytes = (samples / "demo-skill" / "agentic_eval.json").read_bytes()
    assert report["fixture_sha256"] == hashlib.sha256(fixture_bytes).hexdigest()
    assert report["metrics"]["trial_pass_rate"]["passed"] == 4


def test_failing_required_case_exits_1_and_report_only_exits_0(
    samples: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    fixture = str(samples / "failing-required.json")
    gated = invoke("run", fixture, "-o", str(samples / "gated.json"))
    assert gated.exit_code == 1
    report = json.loads((samples / "gated.json").read_text())
    assert_valid_report(report)
    assert report["readiness"] == "NOT_READY"
    codes = [p["code"] for c in report["cases"] for p in c["problems"]]
    assert "EXIT_CODE" in codes and "EXEC_FAILED" in codes
    lenient = invoke("run", fixture, "--report-only")
    assert lenient.exit_code == 0
    assert "readiness: NOT_READY (exit 0)" in lenient.stdout


def test_focused_run_skips_the_gates(samples: Path) -> None:
    result = invoke("run", str(samples / "slop.json"), "--case", "says-ok", "-o", "-")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["focused_cases"] == ["says-ok"]
    assert [c["name"] for c in report["cases"]] == ["says-ok"]


def test_unknown_focused_case_is_a_usage_error(samples: Path) -> None:
    result = CliRunner().invoke(cli, ["run", str(samples / "slop.json"), "--case", "nope"])
    assert result.exit_code == 2
    assert "no case named nope" in result.output


def test_missing_fixture_is_invalid_input(tmp_path: Path) -> None:
    result = invoke("run", str(tmp_path / "absent.json"))
    assert result.exit_code == 2
    assert "AE-FILE-UNREADABLE" in result.stderr


def test_internal_error_is_one_line_and_exit_3(
    samples: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentic_evals import cli as cli_module
    from agentic_evals.evaluation import evaluate as evaluate_module

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(evaluate_module, "evaluate", broken)
    fixture = str(samples / "failing-required.json")
    with pytest.raises(SystemExit) as stop:
        cli_module.main(["run", fixture])
    assert stop.value.code == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err
    assert "Traceback" not in err
    with pytest.raises(SystemExit):
        cli_module.main(["--debug", "run", fixture])
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(("signum", "expected"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_leaves_a_valid_partial_report_and_no_children(
    samples: Path, assert_valid_report: Callable[[Any], None], signum: int, expected: int
) -> None:
    output = samples / "partial.json"
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    runner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentic_evals",
            "run",
            str(samples / "slow.json"),
            "-o",
            str(output),
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    started = samples / "out" / "slow.started"
    try:
        for _ in range(600):
            if started.exists():
                break
            if runner.poll() is not None:
                break
            time.sleep(0.05)
        assert started.exists(), runner.communicate(timeout=5)
        descendants = psutil.Process(runner.pid).children(recursive=True)
        runner.send_signal(signum)
        out, err = runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == expected, err
    report = json.loads(output.read_text())
    assert_valid_report(report)
    assert report["interrupted"] == signal.Signals(signum).name
    assert [c["outcome"] for c in report["cases"]] == ["NOT_TESTED", "NOT_TESTED"]
    assert report["readiness"] != "READY"
    assert descendants, "the slow case should have been running"
    gone, alive = psutil.wait_procs(descendants, timeout=5)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]


def test_an_output_that_cannot_be_written_is_invalid_usage_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentic_evals import cli as cli_module

    marker = tmp_path / "ran"
    fixture = tmp_path / "f.json"
    fixture.write_text(json.dumps({
        "version": 2, "skill": "s", "eval_kind": "runner_selftest", "trials": 2,
        "cases": [{"name": "touches", "type": "positive",
                   "command": ["touch", str(marker)], "expected": {"exit_code": 0}}],
    }))  # fmt: skip
    (tmp_path / "blocker").write_text("a file, not a folder")
    for output, message in [
        (tmp_path, f"cannot write to {tmp_path}: it is a directory"),
        (tmp_path / "blocker" / "report.json", "is not a writable directory"),
    ]:
        with pytest.raises(SystemExit) as stop:
            cli_module.main(["run", str(fixture), "-o", str(output)])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
        assert not marker.exists()
