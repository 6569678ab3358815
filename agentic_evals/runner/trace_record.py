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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from agentic_evals.runner.substance import READ_BYTES, substance
from agentic_evals.runner.trace_match import no_run_option, script_of

_EXEC = 0x40000  # FAN_OPEN_EXEC_PERM
_OPEN = 0x10000  # FAN_OPEN_PERM
_MODIFY = 0x2  # FAN_MODIFY
_MAX_DEPTH = 64
_MAX_OPENS = 4096
_MAX_OPENERS = 16


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
    seq: int = 0
    """When, in the order of the trial's events."""


@dataclass
class TraceRecorder:
    """The record of one trial, filled while it runs."""

    method: str
    runs: list[FileRun] = field(default_factory=list)
    opened: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Every file opened (resolved path), with when (event order) and by which pid."""
    writers: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Every file written, with when (event order) and by which pid."""
    inode_writers: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    """The same by (device, inode): a file written, then renamed into place, keeps them."""
    parents: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Each process seen, with its chain of parents (nearest first)."""
    first_seen: dict[int, int] = field(default_factory=dict)
    """When each process was first seen (its fork, under strace)."""
    seq: int = 0
    """The number of events so far."""
    errors: list[str] = field(default_factory=list)
    _verdicts: dict[tuple[int, int, int, int], str | None] = field(default_factory=dict)

    def event(self, mask: int, fd: int, pid: int) -> None:
        """Record one fanotify event about the file open as ``fd``, caused by ``pid``."""
        path = os.readlink(f"/proc/thread-self/fd/{fd}")
        self.seq += 1
        if mask & _MODIFY:
            self.wrote(path, pid)
            info = os.fstat(fd)
            self.inode_writers.setdefault((info.st_dev, info.st_ino), []).append((self.seq, pid))
            self._seen(pid)
        if mask & _EXEC:
            self._seen(pid)
            self._ran(pid, path, fd, "exec")
        elif mask & _OPEN:
            self._seen(pid)
            self.open(path, pid)
            argv = _cmdline(pid)
            if argv:
                mode = _interpreter_mode(pid, argv, path)
                if mode is not None:
                    self._ran(pid, path, fd, *mode)

    def failed(self, reason: str) -> None:
        """Something could not be read: the record may be short."""
        if len(self.errors) < 10:
            self.errors.append(reason)

    def open(self, path: str, pid: int) -> None:
        """Record that ``pid`` opened ``path`` now."""
        if len(self.opened) < _MAX_OPENS or path in self.opened:
            seen = self.opened.setdefault(path, [])
            if len(seen) < _MAX_OPENERS:
                seen.append((self.seq, pid))

    def writes_of(self, path: str) -> list[tuple[int, int]]:
        """Every write of ``path`` (as it is now, after any rename into place)."""
        found = list(self.writers.get(path, []))
        try:
            info = os.stat(path)
        except OSError:
            return found
        return sorted({*found, *self.inode_writers.get((info.st_dev, info.st_ino), [])})

    def wrote(self, path: str, pid: int) -> None:
        """Record that ``pid`` wrote ``path`` now."""
        self.writers.setdefault(path, []).append((self.seq, pid))

    def _seen(self, pid: int) -> None:
        if pid not in self.parents:
            self.parents[pid] = _ancestors(pid)
            self.first_seen.setdefault(pid, self.seq)

    def _ran(self, pid: int, path: str, fd: int, how: str, option: str | None = None) -> None:
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        if key not in self._verdicts:
            self._verdicts[key] = substance(os.pread(fd, READ_BYTES, 0), path)
        verdict = self._verdicts[key]
        run = FileRun(pid, path, info.st_dev, info.st_ino, how, verdict, option, self.seq)
        self.runs.append(run)

    def by_entrypoint(self, seq: int, pid: int, roots: Mapping[int, int]) -> bool:
        """Whether a write by ``pid`` at ``seq`` came from the entrypoint's process subtree.

        ``roots`` maps each process that ran a substantive file to when it
        began to. The writer is one of them and wrote after it began, or it
        was first seen after one of its ancestors began: a process's writes
        before it ran the entrypoint (``echo x > r.json; exec run.sh``) and
        a child forked earlier are not the entrypoint's.
        """
        if pid in roots:
            return seq > roots[pid]
        born = self.first_seen.get(pid, seq)
        return any(a in roots and born > roots[a] for a in self.parents.get(pid, ()))


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
