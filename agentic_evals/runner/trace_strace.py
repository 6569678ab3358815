"""The strace exec tracer (SPEC 3.5): run a trial under ``strace -DDD -f``.

Why ``-DDD``: strace then runs as a detached grandchild in its own session,
and the trial's leader *is* the traced program. Its pid, process group,
session, parent, exit status and signal death stay exactly what they are
untraced, and the runner's timeout and orphan sweep see the same tree. As
plain ``strace -f`` the tracer would be the leader, and a descendant that
escapes (``setsid``) would keep it alive until the timeout.

The detached tracer is re-parented to the runner (a child subreaper), so it
must be kept out of the trial's process attribution and reaped here:

- its environment names no trial: ``AGENTIC_EVALS_TRIAL`` is replaced for
  strace and restored for the program with ``-E``, so the orphan tracker
  (which attributes runner children by these markers) treats it as foreign;
- strace is executed through a per-trial symlink with a unique name, which
  becomes the tracer's process name (``comm``), so :meth:`StraceTracer.finish`
  finds it, alive or zombie, waits for it through a pidfd and reaps it.

``--seccomp-bpf`` stops the tracees only at ``execve``/``execveat``; without
it every system call would stop twice (ten times slower on syscall-heavy
programs). A one-off probe per strace binary checks that tracing works here
(containers may forbid ptrace) and that it prints nothing on the trial's
stderr; it falls back to plain stops when the filter is refused.

Limits: strace's own diagnostics (only on failure) land on the trial's
stderr, which the tracer shares. The tracer exits just after the trial's
last process; a serial run's orphan sweep that reads it in the microseconds
between its memory being released and it becoming a zombie cannot see its
environment, and would count it as the trial's (no such case in thousands of
stress runs; a tracker-side exclusion by name would close it).
"""

from __future__ import annotations

import os
import secrets
import select
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from agentic_evals.runner.environment import TRIAL_VAR
from agentic_evals.runner.reaper import TRACER_NAME_PREFIX
from agentic_evals.runner.trace_parse import parse_strace
from agentic_evals.runner.trace_types import Exec, Launch

STRACE_PROGRAM = "strace"
"""Looked up on the runner's ``PATH`` when a trial needs tracing."""

TRACE_FILE = "execs.strace"
_ALIAS_PREFIX = TRACER_NAME_PREFIX  # + 6 hex digits: 15 characters, the whole of a comm
_TRACER_MARK = "exec-tracer"  # the tracer's AGENTIC_EVALS_TRIAL: names no trial
EXEC_EVENTS = "execve,execveat"
"""What ``must_exercise`` needs: every exec."""
FILE_EVENTS = (
    "execve,execveat,open,openat,openat2,creat,clone,clone3,fork,vfork,rename,renameat,renameat2"
)
"""What file tracing needs (:mod:`.trace_strace_files`): execs, opens and forks."""


def _flag_sets(events: str) -> tuple[tuple[str, ...], ...]:
    base: tuple[str, ...] = (
        "-DDD",
        "-f",
        "-q",  # -qq would hide "+++ killed by" lines: a timeout kill must be seen
        "-e",
        f"trace={events}",
        "-e",
        "signal=none",
        "-s",
        "4096",
    )
    if events != EXEC_EVENTS:
        base = (*base, "-y")  # a returned fd is printed with the path it resolved to
    return ((*base, "--seccomp-bpf"), base)


_TRACER_EXIT_SECONDS = 5.0
_KILL_WAIT_SECONDS = 5.0
_PROBE_SECONDS = 10.0

_probe_lock = threading.Lock()
_probes: dict[tuple[str, str], tuple[str | None, tuple[str, ...]]] = {}


class StraceTracer:
    """Traces every exec of a process tree with strace (see the module docstring)."""

    name = "strace"

    def __init__(self, events: str = EXEC_EVENTS) -> None:
        self.events = events
        """The system calls traced (:data:`EXEC_EVENTS` or :data:`FILE_EVENTS`)."""

    def problem(self) -> str | None:
        """Why strace cannot trace here, or None when it can (probed once per binary)."""
        found = _ready(self.events)
        return found if isinstance(found, str) else None

    def wrap(self, argv: Sequence[str], env: Mapping[str, str], workdir: Path) -> Launch:
        """Return the command line and environment that run ``argv`` under strace.

        Raises:
            RuntimeError: If strace cannot trace here (check :meth:`problem` first).
        """
        found = _ready(self.events)
        if isinstance(found, str):
            raise RuntimeError(f"strace cannot trace here: {found}")
        return _launch(*found, argv, env, workdir)

    def finish(self, workdir: Path, leader: int | None = None) -> bool:
        """Wait until the tracer of ``workdir`` is gone, and reap it.

        A tracer still running :data:`_TRACER_EXIT_SECONDS` after the trial
        (some traced process outlived the teardown) is killed; its record may
        then be incomplete. ``leader`` (the trial's leader pid) is never
        touched: before it execs the program, it carries the same name.

        Returns:
            False when the tracer had to be killed.
        """
        return _finish(workdir, leader)

    def execs(self, workdir: Path) -> Iterator[Exec]:
        """Every recorded exec, successful or not, in the order strace saw them."""
        return _records(workdir)

    def killed(self, workdir: Path) -> frozenset[int]:
        """The processes that ran and did not exit on their own (``+++ exited with N +++``).

        A signal killed them, or the runner did at a timeout, strace with them
        (its record then ends without their exit).
        """
        path = workdir / TRACE_FILE
        if not path.exists():
            return frozenset()
        ran: set[int] = set()
        exited: set[int] = set()
        with path.open("r", encoding="latin-1", newline="\n") as lines:
            for line in lines:
                pid, _, rest = line.partition(" ")
                if not pid.isdigit():
                    continue
                if " +++ exited with " in line:
                    exited.add(int(pid))
                elif rest.lstrip().startswith(("execve(", "execveat(", "<... execve")):
                    ran.add(int(pid))
        return frozenset(ran - exited)


def _ready(events: str) -> tuple[str, tuple[str, ...]] | str:
    """Return (strace path, flags) when strace works here, else why not."""
    program = shutil.which(STRACE_PROGRAM)
    if program is None:
        return f"{STRACE_PROGRAM!r} not found on PATH"
    with _probe_lock:
        if (program, events) not in _probes:
            _probes[program, events] = _probe(program, events)
        problem, flags = _probes[program, events]
    return (program, flags) if problem is None else problem


def _launch(
    program: str, flags: Sequence[str], argv: Sequence[str], env: Mapping[str, str], workdir: Path
) -> Launch:
    alias = workdir / f"{_ALIAS_PREFIX}{secrets.token_hex(3)}"
    alias.symlink_to(program)
    own = env.get(TRIAL_VAR)
    restore = TRIAL_VAR if own is None else f"{TRIAL_VAR}={own}"
    wrapped = (str(alias), *flags, "-o", str(workdir / TRACE_FILE), "-E", restore, "--", *argv)
    return Launch(wrapped, {**env, TRIAL_VAR: _TRACER_MARK})


def _probe(program: str, events: str) -> tuple[str | None, tuple[str, ...]]:
    """Trace ``strace -V`` once per flag set; the first clean run wins."""
    problem = "the probe did not run"
    for flags in _flag_sets(events):
        with tempfile.TemporaryDirectory(prefix="agentic-evals-trace-probe-") as tmp:
            workdir = Path(tmp)
            launch = _launch(program, flags, [program, "-V"], os.environ, workdir)
            try:
                proc = subprocess.Popen(
                    launch.argv,
                    env=dict(launch.env),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    start_new_session=True,
                )
            except OSError as exc:
                return f"cannot start strace: {exc.strerror or exc}", ()
            try:
                _, err = proc.communicate(timeout=_PROBE_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            _finish(workdir, proc.pid)
            stderr = err.decode("utf-8", "replace").strip()
            traced = any(e.error is None for e in _records(workdir))
            if proc.returncode == 0 and traced and not stderr:
                return None, flags
            first = stderr.splitlines()[0] if stderr else ""
            problem = first or f"the probe exited with {proc.returncode} and recorded no exec"
    return problem, ()


def _records(workdir: Path) -> Iterator[Exec]:
    path = workdir / TRACE_FILE
    if not path.exists():
        return
    # strace escapes every byte outside printable ASCII, so latin-1 never fails.
    with path.open("r", encoding="latin-1", newline="\n") as lines:
        yield from parse_strace(lines)


def _finish(workdir: Path, leader: int | None) -> bool:
    alias = next(workdir.glob(f"{_ALIAS_PREFIX}*"), None)
    if alias is None:
        return True
    clean = True
    for pid in _pids_named(alias.name):
        if pid == leader:
            continue
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue  # gone meanwhile
        try:
            # Checked after opening: the fd pins the process the name was read from.
            if _comm(pid) != alias.name:
                continue
            if not _exited(fd, _TRACER_EXIT_SECONDS):
                clean = False
                _signal(fd, signal.SIGKILL)
                _exited(fd, _KILL_WAIT_SECONDS)
            try:
                os.waitid(os.P_PIDFD, fd, os.WEXITED | os.WNOHANG)
            except OSError:
                pass  # not our child (no subreaper): init reaps it
        finally:
            os.close(fd)
    return clean


def _pids_named(comm: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _comm(int(entry)) == comm:
            found.append(int(entry))
    return found


def _comm(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            return handle.read().decode("utf-8", "replace").rstrip("\n")
    except OSError:
        return None


def _exited(fd: int, timeout: float) -> bool:
    # A pidfd is readable once its process has exited.
    readable, _, _ = select.select([fd], [], [], timeout)
    return bool(readable)


def _signal(fd: int, signum: int) -> None:
    try:
        signal.pidfd_send_signal(fd, signum)
    except OSError:
        pass
