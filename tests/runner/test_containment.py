"""Containment: cgroups, limits (LIMIT_EXCEEDED), network namespaces, and what is reported."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import builders
import psutil
import pytest
from isolation_helpers import case, fixture, needs_cgroups, needs_netns, needs_prlimit, run

from agentic_evals import codes
from agentic_evals.contract.models import Fixture
from agentic_evals.reports.model import TrialReport
from agentic_evals.runner.containment.cgroupfs import Reader
from agentic_evals.runner.containment.limits import DEFAULT_PIDS, effective_limits

PYTHON = sys.executable


def limit_problems(trial: TrialReport) -> list[str]:
    return [p.message.split(":")[0] for p in trial.problems if p.code == codes.LIMIT_EXCEEDED]


def test_limits_merge_key_by_key_and_pids_has_a_default() -> None:
    cases = [builders.case("a", limits={"pids": 10, "cpu_seconds": 3}), builders.case("b")]
    document = builders.fixture(cases, skill="s", limits={"memory_mb": 100, "pids": 50})
    parsed = Fixture.model_validate(document)
    first, second = (effective_limits(c, parsed) for c in parsed.cases)
    assert (first.memory_mb, first.pids, first.cpu_seconds, first.pids_explicit) == (
        100,
        10,
        3,
        True,
    )
    assert (second.memory_mb, second.pids, second.cpu_seconds) == (100, 50, None)
    bare = Fixture.model_validate({**document, "limits": None, "cases": document["cases"][1:]})
    default = effective_limits(bare.cases[0], bare)
    assert (default.pids, default.pids_explicit) == (DEFAULT_PIDS, False)


@needs_cgroups
def test_every_trial_is_in_a_cgroup_and_the_report_says_so(tmp_path: Path) -> None:
    report = run(fixture(tmp_path / "skill", [case("plain", "cat /proc/self/cgroup")]))
    trial = report.cases[0].trials[0]
    assert trial.isolation is not None
    mechanisms = trial.isolation.mechanisms
    assert f"pids-limit={DEFAULT_PIDS}" in mechanisms and "watchdog" in mechanisms
    assert any(m.startswith("cgroup-v") for m in mechanisms)
    assert f"agentic-evals-{report.run_id}/" in trial.stdout  # its own cgroup, below the run's
    assert report.isolation is not None
    assert report.isolation.mechanisms[f"pids-limit={DEFAULT_PIDS}"] == 2


FORK_LOOP = """
import subprocess, sys
children = []
for _ in range(int(sys.argv[1])):
    try:
        children.append(subprocess.Popen(["sleep", "30"]))
    except OSError:
        print("refused after", len(children))
        break
"""


@needs_cgroups
def test_a_bounded_fork_loop_meets_the_pids_limit(tmp_path: Path) -> None:
    looping = {"name": "forks", "type": "positive", "limits": {"pids": 8},
               "command": [PYTHON, "-c", FORK_LOOP, "40"],
               "expected": {"exit_code": 0}}  # fmt: skip
    report = run(fixture(tmp_path / "skill", [looping], trials=1), grace_seconds=0.2)
    trial = report.cases[0].trials[0]
    assert trial.outcome == "FAIL"
    assert limit_problems(trial) == ["pids"]
    assert "refused after" in trial.stdout
    assert len(trial.orphan_pids_after_teardown) >= 1  # the sleeps were killed, and reported
    assert not [p for p in map(_process, trial.orphan_pids_after_teardown) if p is not None]


@needs_cgroups
def test_a_fork_bomb_is_contained_by_the_default_pids_limit(tmp_path: Path) -> None:
    bomb = {"name": "bomb", "type": "adversarial", "timeout_seconds": 60,
            "command": [PYTHON, "-c", FORK_LOOP, str(DEFAULT_PIDS + 200)],
            "expected": {"exit_code": 0}}  # fmt: skip
    report = run(fixture(tmp_path / "skill", [bomb], trials=1), grace_seconds=0.2)
    trial = report.cases[0].trials[0]
    assert limit_problems(trial) == ["pids"]
    assert f"pids limit ({DEFAULT_PIDS}" in trial.problems[-1].message
    assert trial.outcome == "FAIL"


@pytest.mark.parametrize(
    ("limits", "command", "mechanism"),
    [
        pytest.param(
            {"memory_mb": 32},
            [PYTHON, "-c", "x = bytearray(256 * 2**20); print(len(x))"],
            "memory-limit=32MiB",
            marks=needs_cgroups,
            id="memory_mb",
        ),
        pytest.param(
            {"file_size_mb": 1},
            ["bash", "-c", "head -c 5M /dev/zero > big.bin"],
            "rlimit:fsize",
            marks=needs_prlimit,
            id="file_size_mb",
        ),
        pytest.param(
            {"cpu_seconds": 1},
            [PYTHON, "-c", "while True: pass"],
            "rlimit:cpu",
            marks=needs_prlimit,
            id="cpu_seconds",
        ),
    ],
)
def test_exceeding_a_limit_fails_the_trial_naming_it(
    tmp_path: Path, limits: dict[str, int], command: list[str], mechanism: str
) -> None:
    hog = {"name": "hog", "type": "positive", "limits": limits, "timeout_seconds": 60,
           "command": command, "expected": {"exit_code": 0}}  # fmt: skip
    trial = run(fixture(tmp_path / "skill", [hog], trials=1)).cases[0].trials[0]
    assert trial.outcome == "FAIL" and limit_problems(trial) == list(limits)
    assert not trial.timed_out
    assert trial.isolation is not None and mechanism in trial.isolation.mechanisms


@needs_prlimit
def test_open_files_are_limited_without_a_limit_problem(tmp_path: Path) -> None:
    opener = (
        "import os\nfds = []\ntry:\n    for _ in range(100):\n"
        "        fds.append(os.open(os.devnull, os.O_RDONLY))\n"
        "except OSError as e:\n    print('refused', e.errno)\n"
    )
    opens = {"name": "opens", "type": "positive", "limits": {"open_files": 16},
             "command": [PYTHON, "-c", opener], "expected": {"exit_code": 0}}  # fmt: skip
    trial = run(fixture(tmp_path / "skill", [opens], trials=1)).cases[0].trials[0]
    assert trial.stdout.strip() == "refused 24"  # EMFILE: the program sees it, not the runner
    assert trial.outcome == "PASS" and limit_problems(trial) == []
    assert trial.isolation is not None and "rlimit:nofile" in trial.isolation.mechanisms


def test_a_limit_without_its_mechanism_is_a_warning(tmp_path: Path) -> None:
    big = case("big", "true", limits={"file_size_mb": 1})
    env = {**os.environ, "AGENTIC_EVALS_DISABLE": "rlimits"}
    report = run(fixture(tmp_path / "skill", [big], trials=1), environ=env)
    assert report.isolation is not None
    assert "1 trial(s): rlimits (fsize=1048576:1048576): prlimit is not installed" in (
        report.isolation.warnings
    )


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP listener on the machine's loopback; yields its port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


@needs_netns
def test_network_none_cannot_reach_a_listener_outside(tmp_path: Path, listener: int) -> None:
    connect = f"exec 3<>/dev/tcp/127.0.0.1/{listener} && echo connected"
    # A deterministic case that tries the network fails on its own; a live one has the host's.
    offline = case("offline", connect, network="none", evidence_class="deterministic")
    online = case("online", connect, expected={"stdout_contains": ["connected"]})
    report = run(fixture(tmp_path / "skill", [offline, online], trials=1))
    blocked, reached = (c.trials[0] for c in report.cases)
    assert (
        blocked.outcome == "FAIL" and blocked.exit_code != 0 and "connected" not in blocked.stdout
    )
    assert reached.outcome == "PASS"
    assert blocked.isolation is not None and blocked.isolation.network == "none"
    assert "netns" in blocked.isolation.mechanisms
    assert reached.isolation is not None and reached.isolation.network == "host"
    assert report.isolation is not None and report.isolation.networks == {"host": 1, "none": 1}


@needs_netns
def test_network_none_has_a_working_loopback(tmp_path: Path) -> None:
    serve = (
        "import socket\ns = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n"
        "c = socket.create_connection(s.getsockname()); print('loopback ok')\n"
    )
    own = {"name": "own-loopback", "type": "positive", "network": "none",
           "command": [PYTHON, "-c", serve],
           "expected": {"exit_code": 0, "stdout_contains": ["loopback ok"]}}  # fmt: skip
    report = run(fixture(tmp_path / "skill", [own], trials=1))
    assert report.cases[0].outcome == "PASS", report.cases[0].trials[0].stderr


def test_network_none_without_namespaces_is_a_warning(tmp_path: Path) -> None:
    offline = case("offline", "true", network="none")
    env = {**os.environ, "AGENTIC_EVALS_DISABLE": "netns"}
    report = run(fixture(tmp_path / "skill", [offline], trials=1), environ=env)
    trial = report.cases[0].trials[0]
    assert trial.isolation is not None and trial.isolation.network == "host"
    assert report.isolation is not None
    assert (
        "1 trial(s): network none: turned off by AGENTIC_EVALS_DISABLE; ran on the host network"
        in report.isolation.warnings
    )


def _process(pid: int) -> psutil.Process | None:
    try:
        proc = psutil.Process(pid)
        return None if proc.status() == psutil.STATUS_ZOMBIE else proc
    except psutil.Error:
        return None


def test_a_kept_cgroup_file_closed_twice_leaves_the_file_that_took_its_number_open(
    tmp_path: Path,
) -> None:
    """The run's teardown and an interrupted trial may both close one slot's readers."""
    kept = tmp_path / "pids.current"
    kept.write_text("3\n")
    reader = Reader(kept)
    assert reader.text() == "3\n"
    reader.close()
    other = os.open(kept, os.O_RDONLY)  # most likely the number the reader had
    try:
        reader.close()
        assert os.pread(other, 8, 0) == b"3\n"
    finally:
        os.close(other)
