"""Spawning and supervising one trial process tree.

:func:`run_process` starts argv without a shell in a new session, captures its
output with bounded memory, enforces the timeout, and afterwards finds, reports
and kills whatever the trial left running; :func:`end_process` does the same
and leaves the record to be made later. Waiting sleeps on one epoll set that
watches both pipes and pidfds, with a timeout derived from the deadline (a
serial run of short trials may poll it first, see
:mod:`~agentic_evals.runner.polling`). All state is local to the call, so
trials may run in parallel threads; the supervision itself is
:class:`~agentic_evals.runner.supervisor.TrialSupervisor`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec

from agentic_evals import clock
from agentic_evals.codes import PATH_ESCAPE
from agentic_evals.contract.layout import resolved_escape
from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.capture import (
    DEFAULT_SPOOL_THRESHOLD,
    DEFAULT_STREAM_CAP,
    StreamSink,
)
from agentic_evals.runner.interrupt import deferred
from agentic_evals.runner.matching import StreamWatch
from agentic_evals.runner.process_record import EndedProcess, ProcessResult, exit_status
from agentic_evals.runner.reaper import Identity, enable_subreaper, runner_children
from agentic_evals.runner.supervisor import TrialSupervisor

if TYPE_CHECKING:
    from agentic_evals.runner.containment.trial import TrialContainment

__all__ = ["EndedProcess", "ProcessResult", "enable_subreaper", "end_process", "run_process"]


def end_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    grace: float = 1.0,
    stream_cap: int = DEFAULT_STREAM_CAP,
    spool_threshold: int = DEFAULT_SPOOL_THRESHOLD,
    exclude_pids: Collection[int] = (),
    cancel: Cancellation | None = None,
    exclusive: bool = False,
    preexisting: set[Identity] | None = None,
    executable: str | None = None,
    marker_env: Mapping[str, str] | None = None,
    on_started: Callable[[], None] | None = None,
    containment: TrialContainment | None = None,
    watches: tuple[StreamWatch, StreamWatch] | None = None,
    within: Path | None = None,
    poll_seconds: float = 0.0,
) -> EndedProcess:
    """Run one trial until its whole tree is gone; its record is made on demand.

    Args:
        argv: Program and arguments, executed without a shell.
        cwd: Working directory of the trial.
        env: Complete environment; should carry the ``AGENTIC_EVALS_*`` markers.
        timeout: Seconds before the tree is terminated.
        grace: Seconds between SIGTERM and SIGKILL.
        stream_cap: Bytes kept per stream; the rest is counted only.
        spool_threshold: Bytes per stream kept in memory before spooling to disk.
        exclude_pids: Runner children never to be treated as this trial's.
        cancel: When it fires, the tree is killed and :class:`TrialCancelled` raised.
        exclusive: No other trial runs meanwhile (a serial run): every process
            re-parented to the runner during the trial is attributed to it
            unless its environment names another trial.
        preexisting: With ``exclusive``: the runner's children from before,
            when the caller already knows them (taken here otherwise).
        executable: The program to execute for ``argv[0]``, already resolved.
        marker_env: The environment whose ``AGENTIC_EVALS_*`` markers identify
            the trial's processes, when it is not ``env`` (a tracer spawned
            with other markers passes the trial's own to the program).
        on_started: Called once the process runs, before waiting for it;
            if it raises, the tree is killed and the exception propagates.
        containment: The trial's cgroup, network namespace and limits: the
            leader is spawned inside them, and its processes are listed from
            its cgroup (:mod:`agentic_evals.runner.containment.trial`).
        watches: What stdout and stderr are watched for as they flow (every byte).
        within: The directory ``cwd`` must resolve inside, symlinks followed
            (``AE-PATH-ESCAPE``); outside it the program is not started.
        poll_seconds: How long after the spawn the wait for the leader's exit
            polls before it sleeps (:mod:`agentic_evals.runner.polling`).

    Returns:
        The ended process; a program that cannot start yields a record with
        ``start_error``, not an exception.

    Raises:
        ValueError: If ``argv`` is empty.
    """
    args = tuple(argv)
    if not args:
        raise ValueError("argv must not be empty")
    subreaper = enable_subreaper()
    out, err = watches or (None, None)
    sinks = (
        # stdout's digest shows whether trials wrote the same (sampling, docs/evidence.md).
        StreamSink(stream_cap=stream_cap, spool_threshold=spool_threshold, watch=out, digest=True),
        StreamSink(stream_cap=stream_cap, spool_threshold=spool_threshold, watch=err),
    )
    # Taken before the spawn, so that nothing of this trial can be in it.
    if exclusive and subreaper and preexisting is None:
        preexisting = runner_children()
    elif not (exclusive and subreaper):
        preexisting = None
    started = clock.monotonic()
    escape = None if within is None else resolved_escape(cwd, within)
    if escape is not None:
        why = f"cannot start {args[0]!r}: working directory {str(cwd)!r} {escape} ({PATH_ESCAPE})"
        return EndedProcess(_result(args, started, sinks, start_error=why))
    with deferred() as late:  # a signal now would leave the child unwatched
        proc = _start(args, executable, cwd, env, containment)
        if not isinstance(proc, str):
            trial = TrialSupervisor.start(
                proc,
                sinks,
                env if marker_env is None else marker_env,
                exclude_pids,
                subreaper=subreaper,
                cancel_fd=cancel.fd if cancel is not None else None,
                preexisting=preexisting,
                containment=containment,
            )
    if isinstance(proc, str):
        late.deliver()
        return EndedProcess(_result(args, started, sinks, start_error=proc))
    try:
        late.deliver()
        if on_started is not None:
            on_started()
        polled = started + poll_seconds if poll_seconds > 0 else None
        timed_out = trial.supervise(started + timeout, grace, polled)
    except BaseException:
        trial.abort()
        trial.close()
        for sink in sinks:
            sink.discard()
        raise
    ended = clock.monotonic()

    def make() -> ProcessResult:
        trial.close()
        returncode = proc.returncode
        return _result(args, started, sinks, returncode, timed_out, trial.orphans, proc.pid, ended)

    def release() -> None:
        trial.close()
        for sink in sinks:
            sink.discard()

    return EndedProcess(
        make=make,
        returncode=proc.returncode,
        timed_out=timed_out,
        release=release,
        lasted=ended - started,
    )


_P = ParamSpec("_P")


def _at_once(end: Callable[_P, EndedProcess]) -> Callable[_P, ProcessResult]:
    def run(*args: _P.args, **kwargs: _P.kwargs) -> ProcessResult:
        return end(*args, **kwargs).result()

    run.__name__ = run.__qualname__ = "run_process"
    run.__doc__ = """Run one trial to completion and clean up everything it started.

    Takes the arguments of :func:`end_process` and returns its record at once:
    a program that cannot start yields ``start_error``, not an exception.
    """
    return run


run_process = _at_once(end_process)


def _start(
    args: tuple[str, ...],
    executable: str | None,
    cwd: Path,
    env: Mapping[str, str],
    containment: TrialContainment | None,
) -> subprocess.Popen[bytes] | str:
    """Spawn the leader inside its containment; a one-line reason when it cannot start."""
    if containment is None:
        try:
            return _spawn(args, executable, cwd, env)
        except (OSError, ValueError) as exc:
            return _start_error(args[0], cwd, exc)
    with contextlib.ExitStack() as around:
        try:
            around.enter_context(containment.spawning())
        except OSError as exc:
            return f"cannot start {args[0]!r}: the trial's containment failed: {exc}"
        try:
            return containment.spawn(lambda: _spawn(args, executable, cwd, env))
        except (OSError, ValueError) as exc:
            return _start_error(args[0], cwd, exc)


def _spawn(
    args: tuple[str, ...], executable: str | None, cwd: Path, env: Mapping[str, str]
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args,
        executable=executable,
        cwd=cwd,
        env=env,
        stdin=_devnull(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        close_fds=True,
    )


@functools.cache
def _devnull() -> int:
    """A descriptor of /dev/null, the stdin of every trial, opened once per process."""
    return os.open(os.devnull, os.O_RDONLY)


def _result(
    argv: tuple[str, ...],
    started: float,
    sinks: tuple[StreamSink, StreamSink],
    returncode: int | None = None,
    timed_out: bool = False,
    orphans: tuple[int, ...] = (),
    pid: int | None = None,
    ended: float | None = None,
    start_error: str | None = None,
) -> ProcessResult:
    exit_code, signum = exit_status(returncode, timed_out)
    ended = clock.monotonic() if ended is None else ended
    return ProcessResult(
        argv=argv,
        exit_code=exit_code,
        term_signal=signum,
        timed_out=timed_out,
        start_error=start_error,
        duration_ms=int((ended - started) * 1000),
        stdout=sinks[0].finish(),
        stderr=sinks[1].finish(),
        orphan_pids=orphans,
        pid=pid,
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
