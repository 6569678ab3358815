"""Real-process tests of run_process: exit codes, capture, timeouts, orphans, interruption."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import psutil
import pytest

from agentic_evals.runner.process import ProcessResult, enable_subreaper, run_process

HELPERS = Path(__file__).parent / "helpers"
REPO_ROOT = Path(__file__).resolve().parents[2]
LONG = 120.0  # a timeout no healthy test comes near


def trial_env(trial: str = "1") -> dict[str, str]:
    env = dict(os.environ)
    env["AGENTIC_EVALS_RUN_ID"] = uuid.uuid4().hex
    env["AGENTIC_EVALS_CASE"] = "case"
    env["AGENTIC_EVALS_TRIAL"] = trial
    return env


Runner = Callable[..., ProcessResult]


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Runner]:
    """run_process with test defaults; results are closed after the test."""
    results: list[ProcessResult] = []

    def _run(
        argv: list[str],
        *,
        cwd: Path = tmp_path,
        env: dict[str, str] | None = None,
        timeout: float = LONG,
        **options: Any,
    ) -> ProcessResult:
        result = run_process(
            argv, cwd=cwd, env=trial_env() if env is None else env, timeout=timeout, **options
        )
        results.append(result)
        return result

    yield _run
    for result in results:
        result.close()


def gone(pid: int) -> bool:
    """True when nothing with this pid exists any more, zombies included."""
    return not psutil.pid_exists(pid)


def printed_pids(result: ProcessResult) -> list[int]:
    return [int(word) for word in result.stdout.read_all().split() if word.isdigit()]


def test_enable_subreaper_is_idempotent() -> None:
    assert enable_subreaper() is True
    assert enable_subreaper() is True


def test_exit_code_zero(run: Runner) -> None:
    result = run(["true"])
    assert (result.exit_code, result.term_signal, result.timed_out) == (0, None, False)
    assert result.start_error is None
    assert result.orphan_pids == ()


def test_exit_code_nonzero(run: Runner) -> None:
    result = run(["sh", "-c", "exit 3"])
    assert result.exit_code == 3
    assert result.term_signal is None


def test_signal_death_uses_shell_convention(run: Runner) -> None:
    result = run(["sh", "-c", "kill -KILL $$"])
    assert result.exit_code == 128 + signal.SIGKILL
    assert result.term_signal == signal.SIGKILL
    assert not result.timed_out


def test_stdout_and_stderr_are_captured_separately(run: Runner) -> None:
    result = run(["sh", "-c", "echo to-out; echo to-err >&2"])
    assert result.stdout.read_all() == b"to-out\n"
    assert result.stderr.read_all() == b"to-err\n"
    assert result.argv == ("sh", "-c", "echo to-out; echo to-err >&2")


def test_runs_in_cwd_with_given_env_and_devnull_stdin(run: Runner, tmp_path: Path) -> None:
    env = trial_env()
    env["SOME_VAR"] = "some value"
    result = run(["sh", "-c", 'pwd; echo "$SOME_VAR"; cat'], env=env)
    assert result.stdout.read_all() == f"{tmp_path}\nsome value\n".encode()


def test_start_error_program_not_found(run: Runner) -> None:
    result = run(["no-such-program-agentic-evals"])
    assert result.start_error == (
        "cannot start 'no-such-program-agentic-evals': No such file or directory"
    )
    assert result.exit_code is None
    assert result.stdout.total_bytes == 0


def test_start_error_not_executable(run: Runner, tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    result = run([str(script)])
    assert result.start_error == f"cannot start {str(script)!r}: Permission denied"
    assert result.exit_code is None


@pytest.mark.parametrize(
    ("name", "reason"), [("missing", "No such file or directory"), ("file", "Not a directory")]
)
def test_start_error_bad_cwd(run: Runner, tmp_path: Path, name: str, reason: str) -> None:
    (tmp_path / "file").write_text("")
    cwd = tmp_path / name
    result = run(["true"], cwd=cwd)
    assert result.start_error == f"cannot start 'true': working directory {str(cwd)!r}: {reason}"
    assert result.exit_code is None


def test_timeout_kills_group_and_keeps_partial_output(run: Runner) -> None:
    script = "echo before; sleep 300 & echo $!; echo err-before >&2; sleep 300"
    result = run(["bash", "-c", script], timeout=3, grace=1.0)
    assert result.timed_out
    assert result.exit_code is None
    assert result.duration_ms < 20_000
    assert result.stdout.read_all().startswith(b"before\n")
    assert result.stderr.read_all() == b"err-before\n"
    (background,) = printed_pids(result)
    assert gone(background)
    # The group member died with the group; only escapees count as orphans.
    assert result.orphan_pids == ()


def test_term_ignoring_leader_is_killed(run: Runner) -> None:
    script = "trap '' TERM; echo ready; while :; do sleep 1; done"
    result = run(["bash", "-c", script], timeout=3, grace=0.5)
    assert result.timed_out
    assert result.term_signal == signal.SIGKILL
    assert result.stdout.read_all() == b"ready\n"


@pytest.mark.parametrize("hang", [False, True], ids=["exits", "times-out"])
def test_setsid_escapee_is_reported_and_killed(run: Runner, hang: bool) -> None:
    script = "setsid sleep 300 & echo $!" + ("; sleep 300" if hang else "")
    result = run(["bash", "-c", script], timeout=6 if hang else LONG)
    assert result.timed_out is hang
    assert result.exit_code == (None if hang else 0)
    (escapee,) = printed_pids(result)
    assert result.orphan_pids == (escapee,)
    assert gone(escapee)


@pytest.mark.parametrize("hang", [False, True], ids=["exits", "times-out"])
def test_double_fork_escapee_is_reported_and_killed(run: Runner, hang: bool) -> None:
    argv = [sys.executable, str(HELPERS / "double_fork.py"), *(["hang"] if hang else [])]
    result = run(argv, timeout=6 if hang else LONG)
    assert result.timed_out is hang
    (escapee,) = printed_pids(result)
    assert result.orphan_pids == (escapee,)
    assert gone(escapee)


def test_unseen_double_fork_middle_is_reaped(run: Runner, tmp_path: Path) -> None:
    # No output, so the runner never looks below the leader while it runs: the dead middle
    # process is only known through the session its grandchild still belongs to.
    pidfile = tmp_path / "pids"
    result = run([sys.executable, str(HELPERS / "double_fork.py"), "quiet", str(pidfile)])
    grandchild, middle = map(int, pidfile.read_text().split())
    assert result.exit_code == 0
    assert result.orphan_pids == (grandchild,)
    assert gone(grandchild)
    assert gone(middle)


def test_background_child_left_by_leader_is_an_orphan(run: Runner) -> None:
    result = run(["bash", "-c", "sleep 300 & echo $!"])
    assert result.exit_code == 0
    (child,) = printed_pids(result)
    assert result.orphan_pids == (child,)
    assert gone(child)


def test_zombie_child_is_reaped_not_reported(run: Runner) -> None:
    result = run([sys.executable, str(HELPERS / "zombie_child.py")])
    assert result.exit_code == 0
    (zombie,) = printed_pids(result)
    assert result.orphan_pids == ()
    assert gone(zombie)


def test_non_utf8_bytes_survive(run: Runner) -> None:
    result = run(["printf", r"a\377\376b"])
    assert result.stdout.read_all() == b"a\xff\xfeb"
    assert result.stdout.excerpt() == "a\ufffd\ufffdb"


def test_stream_cap_truncates_but_counts(run: Runner) -> None:
    result = run(
        ["sh", "-c", "head -c 5M /dev/zero; head -c 5M /dev/zero >&2"],
        stream_cap=2**20,
        spool_threshold=64 * 1024,
    )
    for stream in (result.stdout, result.stderr):
        assert stream.truncated
        assert stream.total_bytes == 5 * 2**20
        assert stream.kept_bytes == 2**20
        assert stream.on_disk
    assert result.exit_code == 0


@pytest.mark.parametrize("redirect", ["", ">&2"], ids=["stdout", "stderr"])
def test_memory_stays_bounded_for_huge_output(tmp_path: Path, redirect: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), TMPDIR=str(tmp_path))
    command = f"head -c 300M /dev/zero {redirect}"
    completed = subprocess.run(
        [sys.executable, str(HELPERS / "peak_rss.py"), str(tmp_path), command],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    exit_code, out_bytes, err_bytes, peak_kib, hwm_kib = map(int, completed.stdout.split())
    assert exit_code == 0
    assert (out_bytes if not redirect else err_bytes) == 300 * 2**20
    print(f"300 MiB on {redirect or 'stdout'}: ru_maxrss {peak_kib} KiB, VmHWM {hwm_kib} KiB")
    # ru_maxrss carries the forking parent's peak (here: pytest) across exec on
    # Linux, so the bound is asserted on VmHWM, the runner image's own peak.
    assert hwm_kib < 64 * 1024


def test_keyboard_interrupt_kills_the_tree(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    script = (
        f"sleep 300 & echo $! >> {pidfile}; setsid sleep 300 & echo $! >> {pidfile}; "
        f"echo $$ >> {pidfile}; wait"
    )

    def interrupt_once_started(signum: int, frame: FrameType | None) -> None:
        # Raise only once all three pids are known, so the test can check them.
        if pidfile.exists() and len(pidfile.read_text().split()) == 3:
            raise KeyboardInterrupt
        signal.setitimer(signal.ITIMER_REAL, 0.1)

    previous = signal.signal(signal.SIGALRM, interrupt_once_started)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            run_process(["bash", "-c", script], cwd=tmp_path, env=trial_env(), timeout=LONG)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    pids = [int(word) for word in pidfile.read_text().split()]
    assert len(pids) == 3
    assert [pid for pid in pids if not gone(pid)] == []


def test_concurrent_trials_claim_only_their_own_orphans(tmp_path: Path) -> None:
    barrier = threading.Barrier(2)
    results: dict[str, ProcessResult] = {}
    errors: list[BaseException] = []

    def trial(name: str) -> None:
        try:
            barrier.wait(timeout=30)
            # The leader lingers so that both escapees exist during both sweeps.
            results[name] = run_process(
                ["bash", "-c", "setsid sleep 300 & echo $!; sleep 1"],
                cwd=tmp_path,
                env=trial_env(trial=name),
                timeout=LONG,
            )
        except BaseException as exc:  # reported to the main thread below
            errors.append(exc)

    threads = [threading.Thread(target=trial, args=(name,)) for name in ("1", "2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=LONG)
    assert errors == []
    try:
        for result in results.values():
            (own,) = printed_pids(result)
            assert result.orphan_pids == (own,)
            assert gone(own)
    finally:
        for result in results.values():
            result.close()


def test_excluded_and_unrelated_runner_children_are_untouched(run: Runner) -> None:
    env = trial_env()
    # One bystander carries the same markers but is excluded, one carries none.
    marked = subprocess.Popen(["sleep", "300"], env=env)
    plain = subprocess.Popen(["sleep", "300"])
    try:
        result = run(
            ["bash", "-c", "setsid sleep 300 & echo $!"], env=env, exclude_pids={marked.pid}
        )
        (escapee,) = printed_pids(result)
        assert result.orphan_pids == (escapee,)
        assert marked.poll() is None
        assert plain.poll() is None
    finally:
        for bystander in (marked, plain):
            bystander.kill()
            bystander.wait()


def test_empty_argv_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="argv"):
        run_process([], cwd=tmp_path, env=trial_env(), timeout=LONG)


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_exit_codes_survive_an_outer_tracer(tmp_path: Path) -> None:
    # Under ptrace the tracer sees each exit first; the status reaches the runner a
    # moment after its pidfd turns readable, and must still be reported.
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    completed = subprocess.run(
        ["strace", "-DDD", "-f", "-qq", "-e", "trace=execve", "--seccomp-bpf",
         "-o", str(tmp_path / "trace"), sys.executable, str(HELPERS / "exit_codes.py"), "20"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if "Operation not permitted" in completed.stderr:
        pytest.skip("ptrace is not permitted here")
    assert completed.stdout.split() == ["0", "1"] * 10, completed.stderr
