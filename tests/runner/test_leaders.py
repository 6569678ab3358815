"""Other trials' leaders: known as such, they are skipped without reading their environment."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import psutil
import pytest

from agentic_evals.runner import tracker as reaper
from agentic_evals.runner.children import CHILDREN_FILES
from agentic_evals.runner.reaper import add_leader, discard_leader, enable_subreaper
from agentic_evals.runner.tracker import TrialTracker

pytestmark = pytest.mark.skipif(
    not (CHILDREN_FILES and enable_subreaper()), reason="needs children files and a subreaper"
)


@pytest.fixture
def other_trial() -> Iterator[subprocess.Popen[bytes]]:
    """Another trial's leader, still running, with a child of its own."""
    proc = subprocess.Popen(["sh", "-c", "sleep 30 & wait"], start_new_session=True)
    yield proc
    os.killpg(proc.pid, 9)
    proc.wait()


@pytest.fixture
def environ_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    real = reaper._environ

    def counted(proc: psutil.Process) -> dict[str, str] | None:
        reads.append(proc.pid)
        return real(proc)

    monkeypatch.setattr(reaper, "_environ", counted)
    return reads


@pytest.fixture
def finished_leader() -> Iterator[int]:
    """This trial's leader, exited but not reaped yet, as when a trial's leader just ended."""
    proc = subprocess.Popen(["true"])
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    yield proc.pid
    proc.wait()


def test_a_known_leader_of_another_trial_is_not_read(
    other_trial: subprocess.Popen[bytes], environ_reads: list[int], finished_leader: int
) -> None:
    env = {"AGENTIC_EVALS_RUN_ID": "r", "AGENTIC_EVALS_CASE": "mine", "AGENTIC_EVALS_TRIAL": "1"}
    add_leader(other_trial.pid)
    try:
        tracker = TrialTracker(finished_leader, env, (), subreaper=True)
        assert tracker.members(leader_gone=True) == []
    finally:
        discard_leader(other_trial.pid)
    assert other_trial.pid not in environ_reads


def test_an_unknown_runner_child_is_still_examined(
    other_trial: subprocess.Popen[bytes], environ_reads: list[int], finished_leader: int
) -> None:
    env = {"AGENTIC_EVALS_RUN_ID": "r", "AGENTIC_EVALS_CASE": "mine", "AGENTIC_EVALS_TRIAL": "1"}
    tracker = TrialTracker(finished_leader, env, (), subreaper=True)
    assert tracker.members(leader_gone=True) == []  # no markers of this trial: not a member
    assert other_trial.pid in environ_reads
