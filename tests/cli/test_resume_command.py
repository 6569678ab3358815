"""``run --resume REPORT`` through the real CLI: a run stopped by SIGTERM, then resumed,
ends as one whole run would, having run only what was missing; changes are refused; what
``-o`` may and may not replace; one run in the history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from builders import case
from click.testing import CliRunner
from resume_helpers import SKILL, load, logged, logged_fixture, ran, trial_log, write
from resume_helpers import verdicts_and_counts as verdicts

from agentic_evals.cli import cli

NAMES = ("a", "fails", "refuses", "b")
TRIALS = 3


def agentic_evals(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentic_evals", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def history_runs() -> list[dict[str, Any]]:
    result = invoke("history", "list", "-o", "-")
    assert result.exit_code == 0, result.output
    runs: list[dict[str, Any]] = json.loads(result.stdout)["runs"]
    return runs


def interrupt(fixture: Path, output: Path, log: Path, jobs: int) -> dict[str, Any]:
    """Run ``fixture`` and send SIGTERM once six trials started; the partial report.

    Six, so that at least four have finished even with two trials in flight under
    ``--jobs 2`` (those are killed and dropped).
    """
    command = [sys.executable, "-m", "agentic_evals", "run", str(fixture), "-o", str(output)]
    runner = subprocess.Popen(
        [*command, "--jobs", str(jobs), "--progress", "plain"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(12_000):  # up to four minutes on a loaded machine
            if len(ran(log)) >= 6 or runner.poll() is not None:
                break
            time.sleep(0.02)
        assert runner.poll() is None, runner.communicate()
        runner.terminate()
        _, err = runner.communicate(timeout=120)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 143, err
    return load(output)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_stopped_by_sigterm_and_resumed_ends_as_one_whole_run(
    tmp_path: Path, jobs: int
) -> None:
    log = trial_log(tmp_path)
    fixture = write(tmp_path, logged_fixture(log, NAMES, TRIALS, sleep=0.3))
    report = tmp_path / "report.json"
    first = interrupt(fixture, report, log, jobs)
    # The interrupted report already holds every trial that finished before the signal.
    assert first["interrupted"] == "SIGTERM"
    finished = {t["trial_id"] for c in first["cases"] for t in c["trials"]}
    started = {f"{SKILL}::{entry}" for entry in ran(log)}
    assert 4 <= len(finished) < len(NAMES) * TRIALS and finished <= started
    log.unlink()

    resumed = agentic_evals("run", str(fixture), "--resume", str(report), "-o", str(report))
    everything = {f"{SKILL}::{name}#{n}" for name in NAMES for n in range(1, TRIALS + 1)}
    missing = everything - finished
    # Only the missing trials ran: counted from the trials themselves.
    assert {f"{SKILL}::{entry}" for entry in ran(log)} == missing
    assert len(ran(log)) == len(NAMES) * TRIALS - len(finished)
    again = load(report)
    assert again["resumed_from"]["run_id"] == first["run_id"]
    assert again["resumed_from"]["kept_trials"] == len(finished)
    kept = {t["trial_id"] for c in again["cases"] for t in c["trials"] if t["reused"]}
    assert kept == finished
    assert f"{len(finished)} trial(s) kept, {len(missing)} run" in resumed.stdout

    whole_report = tmp_path / "whole.json"
    whole = agentic_evals("run", str(fixture), "-o", str(whole_report), "--jobs", str(jobs))
    assert resumed.returncode == whole.returncode == 1, resumed.stderr
    assert verdicts(again) == verdicts(load(whole_report))
    # One run in the history for the interrupted run and its resumption.
    assert [run["run_id"] for run in history_runs()] == [
        load(whole_report)["run_id"],
        again["run_id"],
    ]


@pytest.fixture
def stopped(tmp_path: Path) -> tuple[Path, dict[str, Any], Path]:
    """A fixture, its document and the report of a run that ended before case c."""
    log = trial_log(tmp_path)
    document = logged_fixture(log, ("a", "b", "c"))
    fixture = write(tmp_path, document)
    report = tmp_path / "report.json"
    assert invoke("run", str(fixture), "-o", str(report), "--no-history").exit_code == 0
    partial = load(report)
    partial["cases"][2].update(trials=[], outcome="NOT_TESTED")
    report.write_text(json.dumps(partial, indent=2))
    log.unlink()
    return fixture, document, report


def test_a_changed_case_is_refused_and_resume_changed_cases_runs_only_it(
    tmp_path: Path, stopped: tuple[Path, dict[str, Any], Path]
) -> None:
    fixture, document, report = stopped
    log = trial_log(tmp_path)
    before = report.read_bytes()
    document["cases"][0]["expected"]["stdout_contains"] = []
    write(tmp_path, document)
    refused = invoke("run", str(fixture), "--resume", str(report), "-o", str(report))
    assert refused.exit_code == 2
    assert f"case {SKILL}::a: its oracle changed" in refused.stderr
    assert "nothing was run" in refused.stderr and "Traceback" not in refused.output
    assert report.read_bytes() == before and ran(log) == []
    flags = ("--resume", str(report), "--resume-changed-cases", "-o", str(report))
    done = invoke("run", str(fixture), *flags)
    assert done.exit_code == 0, done.output
    assert ran(log) == ["a#1", "a#2", "a#3", "c#1", "c#2", "c#3"]
    again = load(report)
    assert again["resumed_from"]["changed_cases"] == [f"{SKILL}::a"]
    assert [t["reused"] for t in again["cases"][1]["trials"]] == [True] * 3


def test_retry_infra_runs_the_infra_blocked_trials_again(tmp_path: Path) -> None:
    log = trial_log(tmp_path)
    up = tmp_path / "service-up"
    document = logged_fixture(log, ("a",))
    document["cases"].append(
        case(
            "calls",
            command=logged(log, f'test -e {up} || {{ echo "connection refused"; exit 1; }}'),
            infra_blocked_when=["connection refused"],
        )
    )
    fixture = write(tmp_path, document)
    report = tmp_path / "report.json"
    assert invoke("run", str(fixture), "-o", str(report)).exit_code == 1
    up.touch()
    log.unlink()
    kept = invoke("run", str(fixture), "--resume", str(report), "-o", str(tmp_path / "k.json"))
    assert kept.exit_code == 1 and ran(log) == []
    retried = invoke(
        "run", str(fixture), "--resume", str(report), "--retry-infra", "-o", str(report)
    )
    assert retried.exit_code == 0, retried.output
    assert ran(log) == ["calls#1", "calls#2", "calls#3"]
    assert load(report)["resumed_from"]["retry_infra"] is True


def test_only_the_json_report_may_replace_the_report_it_resumes(
    tmp_path: Path, stopped: tuple[Path, dict[str, Any], Path]
) -> None:
    fixture, _, report = stopped
    before = report.read_bytes()
    for flag in ("--junit-xml", "--html", "--markdown"):
        result = invoke("run", str(fixture), "--resume", str(report), flag, str(report))
        assert result.exit_code == 2 and "it is an input" in result.stderr, result.output
        assert report.read_bytes() == before
    for args in (("--retry-infra",), ("--resume-changed-cases",)):
        result = invoke("run", str(fixture), *args)
        assert result.exit_code == 2 and "go with --resume" in result.output
    wrong = invoke("run", str(fixture), "--resume", str(report), "--case", "a")
    assert wrong.exit_code == 2 and "a resumed run runs the cases of the run it resumes" in (
        wrong.stderr
    )
    done = invoke("run", str(fixture), "--resume", str(report), "-o", str(report))
    assert done.exit_code == 0 and load(report)["resumed_from"]["kept_trials"] == 6
    assert "[1/3] PASS       a" in done.stderr and "3 kept" in done.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"schema": "agentic_evals.report.v2", "run_id": "x", "cases": [', "truncated"),
        ('{"hello": "world"}', "not an agentic_evals.report.v2 report"),
        ('{"schema": "agentic_evals.report.v3"}', "written by an incompatible version"),
    ],
)
def test_a_file_that_is_no_resumable_report_is_refused_before_anything_runs(
    tmp_path: Path, content: str, message: str
) -> None:
    log = trial_log(tmp_path)
    fixture = write(tmp_path, logged_fixture(log, ("a",)))
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = invoke("run", str(fixture), "--resume", str(bad), "-o", str(bad))
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert f"{bad}: " in result.stderr and "Traceback" not in result.output
    assert bad.read_text() == content and ran(log) == []


def test_a_focused_case_the_fixture_no_longer_has_is_refused(tmp_path: Path) -> None:
    log = trial_log(tmp_path)
    document = logged_fixture(log, ("a", "b"))
    fixture = write(tmp_path, document)
    report = tmp_path / "report.json"
    assert invoke("run", str(fixture), "--case", "b", "-o", str(report)).exit_code == 0
    document["cases"].pop()
    write(tmp_path, document)
    log.unlink()
    result = invoke("run", str(fixture), "--resume", str(report), "--resume-changed-cases")
    assert result.exit_code == 2, result.output
    assert f"{report} ran the case(s) b, which {fixture} no longer has" in result.stderr
    assert ran(log) == []


def test_a_resumed_run_stopped_again_keeps_what_it_had_and_what_it_finished(
    tmp_path: Path,
) -> None:
    log = trial_log(tmp_path)
    stop = tmp_path / "stop"
    document = logged_fixture(log, ("a", "b", "c"))
    # While ``stop`` exists, case c stops the run (this process) with SIGTERM.
    document["cases"][2]["command"] = logged(
        log, f"test -e {stop} && kill -TERM {os.getpid()} && sleep 10; true"
    )
    fixture = write(tmp_path, document)
    report = tmp_path / "report.json"
    assert invoke("run", str(fixture), "-o", str(report)).exit_code == 0
    first = load(report)
    first["cases"][1].update(trials=[], outcome="NOT_TESTED")
    first["cases"][2].update(trials=[], outcome="NOT_TESTED")
    report.write_text(json.dumps(first))
    stop.touch()
    stopped = invoke("run", str(fixture), "--resume", str(report), "-o", str(report))
    assert stopped.exit_code == 143, stopped.output
    second = load(report)
    assert second["interrupted"] == "SIGTERM"
    assert second["resumed_from"]["kept_trials"] == 3
    assert [len(case["trials"]) for case in second["cases"]] == [3, 3, 0]
    stop.unlink()
    log.unlink()
    done = invoke("run", str(fixture), "--resume", str(report), "-o", str(report))
    assert done.exit_code == 0, done.output
    assert ran(log) == ["c#1", "c#2", "c#3"]
    last = load(report)
    assert last["resumed_from"]["runs"] == [first["run_id"], second["run_id"]]
    origin = {t["trial_id"]: t["reused_from"] for c in last["cases"] for t in c["trials"]}
    assert origin[f"{SKILL}::a#1"] == first["run_id"]
    assert origin[f"{SKILL}::b#1"] == second["run_id"] and origin[f"{SKILL}::c#1"] is None
