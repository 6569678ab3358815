"""The wake latency request of a serial run of short trials.

See :mod:`agentic_evals.runner.polling`.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner import polling
from agentic_evals.runner.polling import POLL_LIMIT, ExitPolling, WakeLatency

REAL_DEVICE = polling.LATENCY_DEVICE
needs_the_device = pytest.mark.skipif(
    not os.access(REAL_DEVICE, os.R_OK | os.W_OK),
    reason=f"{REAL_DEVICE} is missing or only root may open it",
)
needs_two_cpus = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="the request is made only with a second CPU"
)


def _holders(device: Path, pid: int | str = "self") -> list[str]:
    """The descriptors of process ``pid`` open on ``device``."""
    folder = Path(f"/proc/{pid}/fd")
    found = []
    for fd in os.listdir(folder):
        try:
            if os.readlink(folder / fd) == str(device):
                found.append(fd)
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
    return found


def _aggregate() -> int:
    """The CPU latency bound the kernel enforces now, from all requests."""
    with REAL_DEVICE.open("rb") as device:
        return int(struct.unpack("=i", device.read(4))[0])


def test_the_request_asks_for_zero_and_is_dropped_by_closing_its_descriptor(
    tmp_path: Path,
) -> None:
    device = tmp_path / "latency"
    device.write_bytes(b"")
    latency = WakeLatency(device)
    assert not latency.held
    latency.hold()
    latency.hold()  # held already: not opened twice
    assert latency.held and len(_holders(device)) == 1
    assert device.read_bytes() == struct.pack("=i", 0)
    (fd,) = _holders(device)
    # A trial must never inherit it: the cores would stay awake after the run.
    assert fcntl.fcntl(int(fd), fcntl.F_GETFD) & fcntl.FD_CLOEXEC
    latency.release()
    assert not latency.held and _holders(device) == []
    latency.release()  # nothing held: nothing to do
    device.write_bytes(b"")
    latency.hold()  # a later stretch of short trials asks again
    assert latency.held and device.read_bytes() == struct.pack("=i", 0)
    latency.release()


@pytest.mark.parametrize("kind", ["missing", "unwritable", "directory"])
def test_a_device_that_cannot_take_the_request_is_given_up_once(tmp_path: Path, kind: str) -> None:
    device = tmp_path / "latency"
    if kind == "unwritable":
        device.write_bytes(b"")
        device.chmod(0o444)
        if os.access(device, os.W_OK):  # root writes anyway: a full device refuses the write
            device = Path("/dev/full")
    elif kind == "directory":
        device.mkdir()
    latency = WakeLatency(device)
    latency.hold()
    assert not latency.held and _holders(device) == []
    if kind == "missing":
        device.write_bytes(b"")
        latency.hold()  # not tried again, though it would now open
        assert not latency.held and device.read_bytes() == b""


def _rule(tmp_path: Path, environ: dict[str, str], cpus: int) -> tuple[ExitPolling, WakeLatency]:
    device = tmp_path / f"latency-{len(list(tmp_path.iterdir()))}"
    device.write_bytes(b"")
    latency = WakeLatency(device)
    return ExitPolling(environ, cpus, latency), latency


def test_the_request_is_held_after_a_short_trial_and_dropped_after_a_long_one(
    tmp_path: Path,
) -> None:
    rule, latency = _rule(tmp_path, {}, cpus=2)
    assert not latency.held  # nothing ran yet
    rule.ended(POLL_LIMIT / 2)
    assert latency.held and rule.budget() == POLL_LIMIT
    rule.ended(None)  # a trial that could not start changes nothing
    assert latency.held
    rule.ended(POLL_LIMIT * 1.5)
    assert not latency.held and rule.budget() == 0.0
    rule.ended(POLL_LIMIT / 2)
    assert latency.held
    rule.close()  # the run is over
    assert not latency.held


def test_one_cpu_and_the_switch_make_no_request_and_each_switch_turns_off_only_its_own(
    tmp_path: Path,
) -> None:
    one_cpu = _rule(tmp_path, {}, cpus=1)
    off = _rule(tmp_path, {"AGENTIC_EVALS_DISABLE": "x,latency"}, cpus=8)
    no_poll = _rule(tmp_path, {"AGENTIC_EVALS_DISABLE": "poll"}, cpus=8)
    for rule, _ in (one_cpu, off, no_poll):
        rule.ended(POLL_LIMIT / 2)
    assert [latency.held for _, latency in (one_cpu, off, no_poll)] == [False, False, True]
    assert [rule.budget() for rule, _ in (one_cpu, off, no_poll)] == [0.0, POLL_LIMIT, 0.0]
    no_poll[0].close()


def _fixture(tmp_path: Path, cases: list[dict[str, Any]], runs: int) -> Path:
    path = tmp_path / "latency.json"
    document = {"version": 2, "skill": "wake", "eval_kind": "runner_selftest", "trials": runs,
                "cases": cases}  # fmt: skip
    path.write_text(json.dumps(document))
    return path


def _case(name: str, command: list[str]) -> dict[str, Any]:
    return {"name": name, "type": "positive", "command": command,
            "expected": {"exit_code": 0}, "evidence_class": "deterministic"}  # fmt: skip


_SEES = 'ls -l /proc/$PPID/fd /proc/self/fd | grep -c -- "-> {device}$" || true'


@pytest.fixture
def device(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for the kernel's device that the run's requests go to, empty."""
    monkeypatch.delenv("AGENTIC_EVALS_DISABLE", raising=False)
    # Outside the skill tree, as the real device is: the runner writes it, not a trial's view.
    path = tmp_path_factory.mktemp("device") / "latency"
    path.write_bytes(b"")
    monkeypatch.setattr(polling, "LATENCY_DEVICE", path)
    return path


@needs_two_cpus
def test_a_serial_run_holds_the_request_while_short_trials_run_never_in_them_nor_after(
    tmp_path: Path, device: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(polling, "POLL_LIMIT", 0.5)  # a bash a loaded machine keeps within
    sees = ["bash", "-c", _SEES.format(device=device)]
    cases = [_case("short", sees), _case("long", ["bash", "-c", f"sleep 0.6; {_SEES}".format(
        device=device)]), _case("after", sees)]  # fmt: skip
    report = evaluate(load_fixture(_fixture(tmp_path, cases, runs=2)), RunOptions()).report
    seen = [trial.stdout.strip() for case in report.cases for trial in case.trials]
    # The runner (the trial's parent) holds one descriptor after a short trial (in short#2,
    # long#1 and after#2), none before the first trial or after a long one (in short#1,
    # long#2 and after#1), and the trial itself holds none.
    assert seen == ["0", "1", "1", "0", "0", "1"]
    assert device.read_bytes() == struct.pack("=i", 0)  # asked for 0 us (each time)
    assert _holders(device) == []  # dropped when the run ended


@needs_two_cpus
def test_a_parallel_run_makes_no_request(tmp_path: Path, device: Path) -> None:
    path = _fixture(tmp_path, [_case("short", ["true"])], runs=4)
    report = evaluate(load_fixture(path), RunOptions(jobs=2)).report
    assert report.readiness == "READY" and device.read_bytes() == b""


@needs_the_device
def test_the_kernel_enforces_the_request_and_drops_it_when_its_holder_is_killed() -> None:
    before = _aggregate()
    if before == 0:
        pytest.skip("something else already holds the CPUs at 0 us")
    script = (
        "import sys\n"
        "from agentic_evals.runner.polling import WakeLatency\n"
        "latency = WakeLatency()\n"
        "latency.hold()\n"
        "print(latency.held, flush=True)\n"
        "sys.stdin.read()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
            assert _aggregate() == 0
        finally:
            holder.send_signal(signal.SIGKILL)
            holder.wait()
    assert _aggregate() == before  # the kernel closed its descriptor, and so dropped it
