"""Signals held while no trial runs: the block goes on, trials about to start do not, and
the handlers in force before come back."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from resume_helpers import logged_fixture, ran, trial_log, write

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner.interrupt import Interrupted, held, interruptible


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_held_signal_lets_the_block_finish_and_is_told_after_it(signum: int) -> None:
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    finished = False
    with held() as hold:
        os.kill(os.getpid(), signum)
        os.kill(os.getpid(), signal.SIGTERM)  # a second one changes nothing
        finished = True
    assert finished and hold.signum == signum
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


def test_a_signal_held_before_the_trials_stops_them_before_the_first_starts() -> None:
    with held() as hold:
        os.kill(os.getpid(), signal.SIGTERM)
        with pytest.raises(Interrupted) as stop:
            with interruptible():
                pytest.fail("the block ran although a signal was held")
        # The interruption took the signal: the hold has none left to tell.
        assert stop.value.signum == signal.SIGTERM and hold.signum is None


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_that_got_a_signal_before_its_trials_runs_none(tmp_path: Path, jobs: int) -> None:
    log = trial_log(tmp_path)
    loaded = load_fixture(write(tmp_path, logged_fixture(log, ("a", "b"))))
    with held():
        os.kill(os.getpid(), signal.SIGTERM)
        evaluation = evaluate(loaded, RunOptions(jobs=jobs))
    assert evaluation.interrupted_by == signal.SIGTERM and ran(log) == []
    assert [case.outcome for case in evaluation.report.cases] == ["NOT_TESTED", "NOT_TESTED"]


def test_signals_during_the_trials_interrupt_them_as_without_a_hold(tmp_path: Path) -> None:
    log = trial_log(tmp_path)
    document = logged_fixture(log, ("a", "b"), trials=2)
    document["cases"][0]["command"][-1] += f"; kill -TERM {os.getpid()}; sleep 5"
    loaded = load_fixture(write(tmp_path, document))
    with held() as hold:
        evaluation = evaluate(loaded, RunOptions())
    assert evaluation.interrupted_by == signal.SIGTERM and hold.signum is None
    assert ran(log) == ["a#1"]
