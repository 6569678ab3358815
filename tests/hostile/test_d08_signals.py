"""Defect 8: SIGHUP, a second signal and a signal at start-up end the run cleanly.

SIGHUP is handled like SIGTERM (exit 129, teardown, a report); the first
signal's exit status is kept (SIGTERM then SIGINT ends 143); a signal at any
moment after the entry point's first instruction gives no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from hostile_run_helpers import SIGNAL_EXIT, case, catches, finish, skill, start, stop, wait_for

from agentic_evals.runner import process as process_module
from agentic_evals.runner.interrupt import Interrupted, deferred, interruptible
from agentic_evals.runner.process import run_process


def _slow(tmp_path: Path) -> tuple[Path, Path]:
    """A fixture whose first trial marks its start outside the tree and leaves a child; the mark."""
    marks = tmp_path / "marks"
    marks.mkdir()
    mark = marks / "started"
    script = f"touch {mark}; sleep 60 & sleep 60"
    fixture = skill(tmp_path / "s", [case("waits", ["sh", "-c", script]), case("next", ["true"])])
    return fixture, mark


def _descendants(pid: int) -> list[psutil.Process]:
    return psutil.Process(pid).children(recursive=True)


def _run_and_stop(tmp_path: Path, *signums: int) -> tuple[int, str, dict[str, Any]]:
    fixture, mark = _slow(tmp_path)
    output = tmp_path / "report.json"
    runner = start("run", str(fixture), "-o", str(output), "--progress", "none")
    wait_for(mark, runner)
    children = _descendants(runner.pid)
    stop(runner, *signums)
    code, err = finish(runner)
    _, alive = psutil.wait_procs(children, timeout=5)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], "a trial's child survived"
    return code, err, json.loads(output.read_text())


def test_d08_sighup_tears_down_like_sigterm_and_exits_129(tmp_path: Path) -> None:
    code, err, report = _run_and_stop(tmp_path, signal.SIGHUP)
    assert code == 129, err
    assert report["interrupted"] == "SIGHUP"
    assert [c["outcome"] for c in report["cases"]] == ["NOT_TESTED", "NOT_TESTED"]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "signums",
    [
        (signal.SIGTERM, signal.SIGINT),
        (signal.SIGINT, signal.SIGTERM),
        (signal.SIGHUP, signal.SIGINT, signal.SIGTERM),
    ],
    ids=["TERM-then-INT", "INT-then-TERM", "HUP-then-INT-TERM"],
)
def test_d08_the_first_signal_decides_the_exit_status(
    tmp_path: Path, signums: tuple[int, ...]
) -> None:
    code, err, report = _run_and_stop(tmp_path, *signums)
    assert code == SIGNAL_EXIT[signal.Signals(signums[0])], err
    assert report["interrupted"] == signal.Signals(signums[0]).name
    assert "Traceback" not in err


def test_d08_signals_after_the_first_during_teardown_are_ignored(tmp_path: Path) -> None:
    # A burst of signals while the trial is torn down and the report written.
    code, err, report = _run_and_stop(tmp_path, signal.SIGTERM, *[signal.SIGINT] * 5)
    assert (code, report["interrupted"]) == (143, "SIGTERM"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("delay", [0.04, 0.1, 0.25])
def test_d08_a_sigint_soon_after_start_gives_no_traceback(tmp_path: Path, delay: float) -> None:
    fixture, _ = _slow(tmp_path)
    runner = start("run", str(fixture), "-o", str(tmp_path / "report.json"), "--progress", "none")
    time.sleep(delay)
    runner.send_signal(signal.SIGINT)
    code, err = finish(runner)
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_d08_a_signal_once_the_entry_point_runs_ends_quietly(tmp_path: Path, signum: int) -> None:
    fixture, _ = _slow(tmp_path)
    runner = start("run", str(fixture), "-o", str(tmp_path / "report.json"), "--progress", "none")
    # SIGHUP is caught only once the entry point's guard is installed (its first instruction).
    while not catches(runner.pid, signal.SIGHUP):
        assert runner.poll() is None
        time.sleep(0.001)
    runner.send_signal(signum)
    code, err = finish(runner)
    assert code == SIGNAL_EXIT[signal.Signals(signum)], err
    assert "Traceback" not in err


def test_d08_a_signal_during_a_spawn_waits_until_the_trial_can_be_torn_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned: list[int] = []
    real_start = process_module._start

    def start_then_signal(*args: object) -> object:
        proc = real_start(*args)  # type: ignore[arg-type]
        spawned.append(proc.pid)  # type: ignore[union-attr]
        os.kill(os.getpid(), signal.SIGTERM)  # the signal comes before the supervisor has it
        return proc

    monkeypatch.setattr(process_module, "_start", start_then_signal)
    with pytest.raises(Interrupted) as stopped, interruptible():
        run_process(["sleep", "60"], cwd=tmp_path, env=dict(os.environ), timeout=60)
    assert stopped.value.signum == signal.SIGTERM
    assert spawned and not psutil.pid_exists(spawned[0])


def test_d08_a_deferred_signal_is_raised_by_deliver_or_by_an_error_in_the_block() -> None:
    with pytest.raises(Interrupted), interruptible():
        with deferred() as late:
            os.kill(os.getpid(), signal.SIGHUP)
            reached = True  # not raised inside the block
        assert reached
        late.deliver()
    with pytest.raises(Interrupted) as stopped, interruptible():
        with deferred():
            os.kill(os.getpid(), signal.SIGINT)
            raise OSError("the spawn failed")
    assert isinstance(stopped.value.__context__, OSError)
