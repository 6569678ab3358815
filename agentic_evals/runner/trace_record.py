"""What a file tracer saw one trial do: files run, opened and written, and by whom.

Both file tracers fill a :class:`TraceRecorder` (fanotify from its events,
:mod:`agentic_evals.runner.fanotify`; strace from its record). A file
*runs* when it is executed, or when an interpreter opens the very file it
was given as its script (``bash run.sh``, ``python3 tool.py``): the
interpreter's command line, read while it is blocked on the open, names it,
resolved against its working directory. An interpreter given a no-run
option (``bash -n``, ``node --check``, ``python3 -V``) is recorded as
*checking* the file, which runs nothing. Sourcing a file (``. lib.sh``) or
reading it (``cat run.sh``) is an open, not a run. Each file run is judged
once for substance (:mod:`agentic_evals.runner.substance`), from its content
at the time it ran.

Processes are identified by pid with their chain of parents, read while they
wait on a permission event, so the writer of a file (``FAN_MODIFY``) can be
placed in, or outside, the process subtree of the entrypoint that ran.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import NamedTuple

from agentic_evals.runner.substance import READ_BYTES, substance
from agentic_evals.runner.trace_match import no_run_option, script_of

_EXEC = 0x40000  # FAN_OPEN_EXEC_PERM
_OPEN = 0x10000  # FAN_OPEN_PERM
_MODIFY = 0x2  # FAN_MODIFY
_MAX_DEPTH = 64
_MAX_OPENS = 4096


class FileRun(NamedTuple):
    """One file of the tree run (or checked) by one process."""

    pid: int
    path: str
    """The file, as the trial's view resolves it."""
    device: int
    inode: int
    how: str
    """``exec`` (executed), ``script`` (its interpreter runs it) or ``check`` (a no-run mode)."""
    trivial: str | None
    """Why it does nothing (see :mod:`.substance`), or None when it is substantive."""
    option: str | None = None
    """The no-run option of a ``check``."""


@dataclass
class TraceRecorder:
    """The record of one trial, filled while it runs."""

    method: str
    runs: list[FileRun] = field(default_factory=list)
    opened: dict[str, int] = field(default_factory=dict)
    """Every file opened (resolved path), with the first pid that opened it."""
    writers: dict[str, set[int]] = field(default_factory=dict)
    """Every file written, with the pids that wrote it."""
    parents: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Each process seen, with its chain of parents (nearest first)."""
    errors: list[str] = field(default_factory=list)
    _verdicts: dict[tuple[int, int, int, int], str | None] = field(default_factory=dict)

    def event(self, mask: int, fd: int, pid: int) -> None:
        """Record one fanotify event about the file open as ``fd``, caused by ``pid``."""
        path = os.readlink(f"/proc/thread-self/fd/{fd}")
        if mask & _MODIFY:
            self.writers.setdefault(path, set()).add(pid)
            self._seen(pid)
        if mask & _EXEC:
            self._seen(pid)
            self._ran(pid, path, fd, "exec")
        elif mask & _OPEN:
            self._seen(pid)
            if len(self.opened) < _MAX_OPENS:
                self.opened.setdefault(path, pid)
            argv = _cmdline(pid)
            if argv:
                mode = _interpreter_mode(pid, argv, path)
                if mode is not None:
                    self._ran(pid, path, fd, *mode)

    def failed(self, reason: str) -> None:
        """Something could not be read: the record may be short."""
        if len(self.errors) < 10:
            self.errors.append(reason)

    def _seen(self, pid: int) -> None:
        if pid not in self.parents:
            self.parents[pid] = _ancestors(pid)

    def _ran(self, pid: int, path: str, fd: int, how: str, option: str | None = None) -> None:
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        if key not in self._verdicts:
            self._verdicts[key] = substance(os.pread(fd, READ_BYTES, 0), path)
        run = FileRun(pid, path, info.st_dev, info.st_ino, how, self._verdicts[key], option)
        self.runs.append(run)

    def in_subtree(self, pid: int, roots: set[int]) -> bool:
        """Whether ``pid`` is one of ``roots`` or a descendant of one (as far as it was seen)."""
        return pid in roots or any(parent in roots for parent in self.parents.get(pid, ()))


def _interpreter_mode(pid: int, argv: tuple[str, ...], path: str) -> tuple[str, str | None] | None:
    """``("script", None)`` when ``argv`` runs ``path``, ``("check", option)`` when it checks it."""
    found = script_of(argv[0], argv)
    if found is None:
        return None
    script, after = found
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None
    if os.path.realpath(os.path.join(cwd, script)) != path:
        return None
    option = no_run_option(argv[0], argv, after - 1)
    return ("check", option) if option else ("script", None)


def _cmdline(pid: int) -> tuple[str, ...]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read()
    except OSError:
        return ()
    return tuple(os.fsdecode(part) for part in raw.split(b"\0")[:-1])


def _ancestors(pid: int) -> tuple[int, ...]:
    chain: list[int] = []
    current = pid
    while len(chain) < _MAX_DEPTH:
        parent = _parent(current)
        if parent is None or parent <= 1:
            break
        chain.append(parent)
        current = parent
    return tuple(chain)


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields follow the last ")".
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 else None
