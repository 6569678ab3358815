"""Spawning and supervising one trial process tree.

:func:`run_process` starts argv without a shell in a new session, captures its
output with bounded memory, enforces the timeout, and afterwards finds, reports
and kills whatever the trial left running. Waiting never polls: one selector
watches both pipes and pidfds, with a timeout derived from the deadline.
All state is local to the call, so trials may run in parallel threads.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentic_evals import clock
from agentic_evals.runner.capture import (
    DEFAULT_SPOOL_THRESHOLD,
    DEFAULT_STREAM_CAP,
    CapturedStream,
    PipePump,
    StreamSink,
)
from agentic_evals.runner.reaper import (
    Handle,
    HandleSet,
    TrialTracker,
    enable_subreaper,
    in_group,
    is_live,
)

__all__ = ["ProcessResult", "enable_subreaper", "run_process"]

_FINAL_DRAIN_SECONDS = 2.0
_KILL_WAIT_SECONDS = 5.0
_SWEEP_ROUNDS = 3


@dataclass(frozen=True)
class ProcessResult:
    """What one trial process did.

    Attributes:
        argv: The command that was run.
        exit_code: The leader's exit status; 128+signum after a signal death;
            None when it timed out or could not start.
        term_signal: The signal that ended the leader, if any.
        timed_out: Whether the timeout expired and the tree was killed.
        start_error: A one-line reason when the program could not start.
        duration_ms: Time from spawning until the whole tree was gone and drained.
        stdout: Captured standard output.
        stderr: Captured standard error.
        orphan_pids: Descendants still alive after the leader ended (then killed).
    """

    argv: tuple[str, ...]
    exit_code: int | None
    term_signal: int | None
    timed_out: bool
    start_error: str | None
    duration_ms: int
    stdout: CapturedStream
    stderr: CapturedStream
    orphan_pids: tuple[int, ...]

    def close(self) -> None:
        """Release both captured streams."""
        self.stdout.close()
        self.stderr.close()


def run_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    grace: float = 1.0,
    stream_cap: int = DEFAULT_STREAM_CAP,
    spool_threshold: int = DEFAULT_SPOOL_THRESHOLD,
    exclude_pids: Collection[int] = (),
) -> ProcessResult:
    """Run one trial to completion and clean up everything it started.

    Args:
        argv: Program and arguments, executed without a shell.
        cwd: Working directory of the trial.
        env: Complete environment; should carry the ``AGENTIC_EVALS_*`` markers.
        timeout: Seconds before the tree is terminated.
        grace: Seconds between SIGTERM and SIGKILL.
        stream_cap: Bytes kept per stream; the rest is counted only.
        spool_threshold: Bytes per stream kept in memory before spooling to disk.
        exclude_pids: Runner children never to be treated as this trial's.

    Returns:
        The result; a program that cannot start yields ``start_error``, not an exception.

    Raises:
        ValueError: If ``argv`` is empty.
    """
    args = tuple(argv)
    if not args:
        raise ValueError("argv must not be empty")
    subreaper = enable_subreaper()
    sinks = (
        StreamSink(stream_cap=stream_cap, spool_threshold=spool_threshold),
        StreamSink(stream_cap=stream_cap, spool_threshold=spool_threshold),
    )
    started = clock.monotonic()
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
        )
    except (OSError, ValueError) as exc:
        return _result(args, started, sinks, start_error=_start_error(args[0], cwd, exc))
    trial = _Trial.start(proc, sinks, env, exclude_pids, subreaper=subreaper)
    try:
        timed_out = trial.supervise(started + timeout, grace)
    except BaseException:
        trial.abort()
        for sink in sinks:
            sink.discard()
        raise
    finally:
        trial.close()
    return _result(args, started, sinks, proc.returncode, timed_out, trial.orphans)


def _result(
    argv: tuple[str, ...],
    started: float,
    sinks: tuple[StreamSink, StreamSink],
    returncode: int | None = None,
    timed_out: bool = False,
    orphans: tuple[int, ...] = (),
    start_error: str | None = None,
) -> ProcessResult:
    signum = -returncode if returncode is not None and returncode < 0 else None
    exit_code = None if timed_out else returncode
    if exit_code is not None and signum is not None:
        exit_code = 128 + signum  # the shell's convention for a signal death
    return ProcessResult(
        argv=argv,
        exit_code=exit_code,
        term_signal=signum,
        timed_out=timed_out,
        start_error=start_error,
        duration_ms=int((clock.monotonic() - started) * 1000),
        stdout=sinks[0].finish(),
        stderr=sinks[1].finish(),
        orphan_pids=orphans,
    )


def _start_error(program: str, cwd: Path, exc: OSError | ValueError) -> str:
    if not isinstance(exc, OSError):
        return f"cannot start {program!r}: {exc}"
    reason = exc.strerror or str(exc)
    # Popen reports a failed chdir with the working directory as the filename.
    filename = exc.filename
    if filename is not None and filename != program and os.fsdecode(filename) == os.fsdecode(cwd):
        return f"cannot start {program!r}: working directory {os.fsdecode(cwd)!r}: {reason}"
    return f"cannot start {program!r}: {reason}"


class _Trial:
    """Supervision state of one running trial."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        leader: Handle,
        pump: PipePump,
        tracker: TrialTracker,
    ) -> None:
        self._proc = proc
        self._leader = leader
        self._pump = pump
        self._tracker = tracker
        self._handles = HandleSet()
        self._orphans: set[int] = set()

    @classmethod
    def start(
        cls,
        proc: subprocess.Popen[bytes],
        sinks: tuple[StreamSink, StreamSink],
        env: Mapping[str, str],
        exclude_pids: Collection[int],
        *,
        subreaper: bool,
    ) -> _Trial:
        """Begin supervising ``proc``; if even that fails (no fds left), kill it and re-raise."""
        assert proc.stdout is not None and proc.stderr is not None
        pipes = {proc.stdout.fileno(): sinks[0], proc.stderr.fileno(): sinks[1]}
        pump = None
        try:
            tracker = TrialTracker(proc.pid, env, exclude_pids, subreaper=subreaper)
            pump = PipePump(pipes, on_output=tracker.observe)
            # Opened before anyone reaps the leader, so the fd surely refers to it.
            return cls(proc, Handle(proc.pid, os.pidfd_open(proc.pid)), pump, tracker)
        except BaseException:
            if pump is not None:
                pump.close()
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()
            for sink in sinks:
                sink.discard()
            raise

    @property
    def orphans(self) -> tuple[int, ...]:
        """Pids of descendants that were alive after the leader ended."""
        return tuple(sorted(self._orphans))

    def supervise(self, deadline: float, grace: float) -> bool:
        """Wait for the leader, clean up the tree, and return whether it timed out."""
        timed_out = bool(self._pump.wait([self._leader.fd], deadline))
        if timed_out:
            members = self._tracker.members()
            # Escapees (outside the leader's group) are reported; the group dies with the leader.
            self._orphans.update(
                p.pid for p in members if is_live(p) and not in_group(p.pid, self._proc.pid)
            )
            self._terminate([self._leader, *self._handles.open(members)], grace, group=True)
        self._pump.drain(None)
        self._sweep(grace)
        # Output may still be buffered in pipes whose writers were just killed.
        self._pump.drain(clock.monotonic() + _FINAL_DRAIN_SECONDS)
        self._reap()
        return timed_out

    def abort(self) -> None:
        """Kill and reap the whole tree at once (the caller is being interrupted)."""
        for _ in range(2):
            targets = [self._leader, *self._handles.open(self._tracker.members())]
            self._signal(targets, signal.SIGKILL, group=True)
            self._pump.wait([h.fd for h in targets], clock.monotonic() + _KILL_WAIT_SECONDS)
        self._reap()

    def close(self) -> None:
        """Close pidfds and pipes."""
        self._leader.close()
        self._handles.close()
        self._pump.close()
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()

    def _sweep(self, grace: float) -> None:
        for _ in range(_SWEEP_ROUNDS):
            members = self._tracker.members()
            self._handles.open(members)  # zombies too, so that they get reaped
            live = [p for p in members if is_live(p)]
            if not live:
                return
            self._orphans.update(p.pid for p in live)
            self._terminate(self._handles.open(live), grace, group=False)

    def _terminate(self, targets: list[Handle], grace: float, *, group: bool) -> None:
        self._signal(targets, signal.SIGTERM, group=group)
        pending = self._pump.wait([h.fd for h in targets], clock.monotonic() + grace)
        if pending:
            self._signal([h for h in targets if h.fd in pending], signal.SIGKILL, group=group)
            self._pump.wait(pending, clock.monotonic() + _KILL_WAIT_SECONDS)

    def _signal(self, targets: list[Handle], signum: int, *, group: bool) -> None:
        if group:
            # Safe by pid: the unreaped leader keeps its pid from being reused as a group id.
            try:
                os.killpg(self._proc.pid, signum)
            except OSError:
                pass
        for handle in targets:
            handle.signal(signum)

    def _reap(self) -> None:
        self._handles.reap_all()
        # Non-blocking: a leader stuck in the kernel even after SIGKILL must not hang us.
        self._proc.poll()
