"""Reading, writing and killing cgroups: the file operations under :mod:`.cgroups`.

cgroups are plain files. Killing uses ``cgroup.kill`` (v2), or freezes the
cgroup first (v1 ``freezer``) so that no process can fork, or exit and free
its pid for reuse, between being listed and being signalled. A v1 slot may
hold one of the runner's own threads, so the runner's pid is never listed
or signalled.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from agentic_evals import clock

_READ_CHUNK = 65536
_KILL_ROUNDS = 50
_FREEZE_WAIT_SECONDS = 2.0


def write(path: Path, text: str) -> None:
    """Write ``text`` to the cgroup file ``path`` in one write (as the kernel wants it)."""
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def read(path: Path) -> str:
    """The content of cgroup file ``path``; empty when it is gone."""
    try:
        return path.read_text()
    except OSError:
        return ""


def field(text: str, name: str) -> int:
    """The number on the line ``name N`` of a flat-keyed cgroup file (0 when absent)."""
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return 0


def member_pids(directory: Path) -> list[int]:
    """The processes in cgroup ``directory`` (empty when it is gone)."""
    return [int(word) for word in read(directory / "cgroup.procs").split()]


class Reader:
    """A cgroup file kept open and read again with ``pread``.

    Opening a cgroup file costs tens of microseconds (``cgroup.procs`` builds
    its list on open), reading it again from offset 0 a couple.
    """

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        self._closing = threading.Lock()

    def text(self) -> str:
        """The file's content now."""
        chunk = os.pread(self._fd, _READ_CHUNK, 0)
        if len(chunk) < _READ_CHUNK:
            return chunk.decode()  # the usual case: one read
        parts = [chunk]
        while chunk := os.pread(self._fd, _READ_CHUNK, sum(map(len, parts))):
            parts.append(chunk)
        return b"".join(parts).decode()

    def close(self) -> None:
        """Close the file, once.

        The run's teardown and a trial's own may both close a slot's readers (an interrupted
        run does not wait for its last trials): a second close must not close whatever file
        took the number since.
        """
        with self._closing:
            fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)


def kill_cgroup(tracker: Path, freezer: Path | None = None) -> bool:
    """Kill everything in cgroup ``tracker``; return whether it is empty afterwards.

    v2 has ``cgroup.kill``. In v1 the processes are frozen first, when a
    freezer cgroup is given, so that none can fork or exit (and free its pid
    for reuse) between being listed and being signalled.
    """
    kill_file = tracker / "cgroup.kill"
    for _ in range(_KILL_ROUNDS):
        pids = _others(tracker)
        if not pids:
            return True
        if kill_file.exists():
            quiet_write(kill_file, "1")
        else:
            frozen = freezer is not None and _freeze(freezer, True)
            for pid in _others(tracker) if frozen else pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if frozen and freezer is not None:
                _freeze(freezer, False)
        _settle(tracker)
    return not _others(tracker)


def _others(tracker: Path) -> list[int]:
    """The processes in ``tracker`` but the runner (a v1 slot may hold one of its threads)."""
    own = os.getpid()
    return [pid for pid in member_pids(tracker) if pid != own]


def _freeze(directory: Path, frozen: bool) -> bool:
    state = "FROZEN" if frozen else "THAWED"
    if not quiet_write(directory / "freezer.state", state):
        return False
    deadline = clock.monotonic() + _FREEZE_WAIT_SECONDS
    while frozen and read(directory / "freezer.state").strip() != state:
        if clock.monotonic() > deadline:
            return False
        threading.Event().wait(0.001)
    return True


def _settle(tracker: Path) -> None:
    """Wait a moment for killed processes to leave the cgroup (they are being reaped)."""
    deadline = clock.monotonic() + 0.5
    while _others(tracker) and clock.monotonic() < deadline:
        threading.Event().wait(0.002)


def quiet_write(path: Path, text: str) -> bool:
    """Write like :func:`write`; return whether it worked instead of raising."""
    try:
        write(path, text)
    except OSError:
        return False
    return True


def sweep(run_dir: Path, found: Callable[[Path, list[int]], None] | None = None) -> None:
    """Kill what is left in every slot of a run's cgroup directory, then remove them all.

    ``found`` is told each slot's processes before they are killed.
    """
    for slot in sorted(run_dir.glob("t*")):
        pids = _others(slot)
        if found is not None:
            found(slot, pids)
        kill_cgroup(slot)
        _remove(slot)
    _remove(run_dir)


def _remove(directory: Path) -> None:
    try:
        os.rmdir(directory)
    except OSError:
        pass  # a process the kernel would not kill is still there: the directory stays
