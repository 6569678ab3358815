"""Parallel trials (``--jobs``) give the same report as a serial run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest
from isolation_helpers import parallel_problem, serial_note

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner import serial, trials
from agentic_evals.runner.interrupt import Interrupted
from agentic_evals.runner.verdict import UnjudgedTrial

VOLATILE = {"run_id", "generated_at", "duration_ms"}


def mixed_fixture(tmp_path: Path) -> Path:
    cases = [
        {"name": "passes", "type": "positive", "command": ["bash", "-c", "echo ok"],
         "expected": {"exit_code": 0, "stdout_contains": ["ok"]}},
        {"name": "fails", "type": "negative", "command": ["bash", "-c", "exit 4"],
         "expected": {"exit_code": 0}},
        {"name": "flaky-by-trial", "type": "positive",
         "command": ["bash", "-c", 'test "$AGENTIC_EVALS_TRIAL" != 2'],
         "expected": {"exit_code": 0}},
        {"name": "strands-grandchild", "type": "adversarial",
         "command": ["bash", "-c", "setsid sleep 60 & echo left"],
         "expected": {"exit_code": 0}},
        {"name": "times-out", "type": "adversarial", "timeout_seconds": 1,
         "command": ["bash", "-c", "echo begun; sleep 60"], "expected": {"exit_code": 0}},
        {"name": "blocked", "type": "positive", "command": ["bash", "-c", "echo NO_SERVICE"],
         "blocked_when_stdout_contains": ["NO_SERVICE"], "expected": {"exit_code": 0}},
        {"name": "writes-artifact", "type": "positive",
         "command": ["bash", "-c", 'mkdir -p out && echo "{\\"n\\": 1}" > out/n.json'],
         "expected": {"exit_code": 0,
                      "artifacts": [{"glob": "out/*.json", "json_pointer": "/n", "equals": 1}]}},
        {"name": "cannot-start", "type": "negative", "command": ["no-such-program-here"],
         "expected": {"exit_code": 0}},
    ]  # fmt: skip
    path = tmp_path / "mixed.json"
    path.write_text(
        json.dumps(
            {"version": 2, "skill": "mixed", "eval_kind": "runner_selftest", "trials": 3,
             "cases": cases}
        )
    )  # fmt: skip
    return path


def normalised(value: Any) -> Any:
    """The report without times and ids; pids replaced by their count.

    A note that a parallel run ran serially (no cgroups and no private
    namespaces here) is the one thing such a run reports differently.
    """
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in VOLATILE:
                continue
            if key in ("notes", "warnings") and isinstance(item, list):
                item = [text for text in item if not (isinstance(text, str) and serial_note(text))]
            if key == "orphan_pids_after_teardown":
                out[key] = len(item)
            elif key in {"message", "stdout", "stderr"} and isinstance(item, str):
                out[key] = " ".join(w for w in item.split() if not w.rstrip(",.").isdigit())
            else:
                out[key] = normalised(item)
        return out
    if isinstance(value, list):
        return [normalised(item) for item in value]
    return value


def test_parallel_report_equals_serial_report(tmp_path: Path) -> None:
    path = mixed_fixture(tmp_path)
    reports = []
    for jobs in (1, 4):
        report = evaluate(load_fixture(path), RunOptions(jobs=jobs, grace_seconds=0.5)).report
        reports.append(json.loads(report.model_dump_json(by_alias=True)))
    serial, parallel = reports
    assert normalised(parallel) == normalised(serial)
    outcomes = [c["outcome"] for c in serial["cases"]]
    assert outcomes == ["PASS", "FAIL", "FAIL", "FAIL", "FAIL", "BLOCKED", "PASS", "FAIL"]
    orphans = [t["orphan_pids_after_teardown"] for t in parallel["cases"][3]["trials"]]
    assert all(len(pids) == 1 for pids in orphans)
    assert len({pid for pids in orphans for pid in pids}) == 3


@pytest.mark.skipif(parallel_problem() is not None, reason=f"serial here: {parallel_problem()}")
def test_sigterm_stops_parallel_trials_and_writes_a_partial_report(tmp_path: Path) -> None:
    cases = [
        {"name": f"slow-{i}", "type": "positive",
         "command": ["bash", "-c", f"touch {tmp_path}/started-{i}-$AGENTIC_EVALS_TRIAL; sleep 60"],
         "expected": {"exit_code": 0}}
        for i in range(4)
    ]  # fmt: skip
    # The markers are outside the skill tree: inside, each trial writes to its private view.
    (tmp_path / "skill").mkdir()
    path = tmp_path / "skill" / "slow.json"
    path.write_text(json.dumps({"version": 2, "skill": "slow", "eval_kind": "runner_selftest",
                                "trials": 2, "cases": cases}))  # fmt: skip
    output = tmp_path / "report.json"
    runner = subprocess.Popen(
        [sys.executable, "-m", "agentic_evals", "run", str(path), "-j", "3", "-o", str(output)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(1200):
            if len(list(tmp_path.glob("started-*"))) >= 3:
                break
            psutil.wait_procs([psutil.Process(runner.pid)], timeout=0.05)
        children = psutil.Process(runner.pid).children(recursive=True)
        assert len(children) >= 3
        runner.send_signal(signal.SIGTERM)
        _, err = runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 143, err
    report = json.loads(output.read_text())
    assert report["interrupted"] == "SIGTERM"
    assert [c["outcome"] for c in report["cases"]] == ["NOT_TESTED"] * 4, report["cases"]
    _, alive = psutil.wait_procs(children, timeout=5)
    assert [p for p in alive if p.status() != psutil.STATUS_ZOMBIE] == []
    assert os.path.exists(output)


def two_case_fixture(tmp_path: Path, second: list[str]) -> Path:
    cases = [
        {"name": "first", "type": "positive", "command": ["true"], "expected": {"exit_code": 0}},
        {"name": "second", "type": "negative", "command": second, "expected": {"exit_code": 0}},
    ]
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"version": 2, "skill": "two", "eval_kind": "runner_selftest",
                                "trials": 2, "cases": cases}))  # fmt: skip
    return path


def test_a_trial_that_cannot_start_still_gets_the_one_before_it_judged(tmp_path: Path) -> None:
    path = two_case_fixture(tmp_path, ["no-such-program-here"])
    report = evaluate(load_fixture(path), RunOptions()).report
    trials = [[t.trial_id for t in case.trials] for case in report.cases]
    assert trials == [["two::first#1", "two::first#2"], ["two::second#1", "two::second#2"]]
    assert [case.outcome for case in report.cases] == ["PASS", "FAIL"]


def test_a_signal_before_the_next_trial_runs_keeps_the_finished_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = two_case_fixture(tmp_path, ["true"])
    real = trials.execute_trial
    calls: list[int] = []

    def interrupted_third(*args: Any, **kwargs: Any) -> UnjudgedTrial:
        calls.append(1)
        if len(calls) == 3:  # the signal comes before this trial's process runs
            raise Interrupted(signal.SIGTERM)
        return real(*args, **kwargs)

    monkeypatch.setattr(serial, "execute_trial", interrupted_third)
    evaluation = evaluate(load_fixture(path), RunOptions())
    assert evaluation.interrupted_by == signal.SIGTERM
    first, second = evaluation.report.cases
    assert [t.outcome for t in first.trials] == ["PASS", "PASS"]  # the second one was waiting
    assert (first.outcome, second.outcome, second.trials) == ("PASS", "NOT_TESTED", [])
