"""Listing a process's children from ``/proc/PID/task/TID/children``.

The kernel lists each thread's children in a file of its own (with
``CONFIG_PROC_CHILDREN``). Any process's children are read by listing its
threads and opening each file. The runner's own children are read after
every trial, so :class:`OwnChildren` keeps those files open and re-reads them
with ``pread``, which asks the kernel afresh each time and costs a tenth of
listing and opening them.
"""

from __future__ import annotations

import os
import sys
import threading

_CHUNK = 64 * 1024


def _supported() -> bool:
    return sys.platform.startswith("linux") and os.path.exists(
        f"/proc/self/task/{threading.get_native_id()}/children"
    )


CHILDREN_FILES = _supported()
"""Whether the kernel lists children in /proc; without it callers walk the process table."""


def child_pids(pid: int) -> list[int]:
    """Return the pids of ``pid``'s children, read from every thread's children file."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as handle:
                found.extend(int(word) for word in handle.read().split())
        except OSError:  # the thread or the process ended meanwhile
            continue
    return found


class OwnChildren:
    """This process's children, from children files kept open between reads.

    The files are those of the threads that were alive when they were opened;
    they are opened again whenever the set of Python threads changes (a pool
    of trial workers starting or ending) or the process forked. Threads that
    no Python code runs in start no trials, and an orphan handed to this
    process as subreaper goes to its first live thread, the main thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[int, frozenset[int]] | None = None
        self._fds: list[int] = []

    def pids(self) -> list[int]:
        """Return the pids of this process's children."""
        key = (os.getpid(), frozenset(thread.native_id or 0 for thread in threading.enumerate()))
        with self._lock:
            if key != self._key:
                self._reopen(key)
            fds = list(self._fds)
        found: list[int] = []
        for fd in fds:
            try:
                found.extend(int(word) for word in _read_all(fd).split())
            except OSError:  # that thread ended
                continue
        return found

    def _reopen(self, key: tuple[int, frozenset[int]]) -> None:
        # After a fork the inherited descriptors name the parent's threads: closed all the same.
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        self._key = key
        try:
            tids = os.listdir("/proc/self/task")
        except OSError:
            return
        for tid in tids:
            try:
                self._fds.append(os.open(f"/proc/self/task/{tid}/children", os.O_RDONLY))
            except OSError:
                continue


def _read_all(fd: int) -> bytes:
    """Read a whole children file from its start (a fresh listing every time)."""
    parts: list[bytes] = []
    offset = 0
    while True:
        data = os.pread(fd, _CHUNK, offset)
        parts.append(data)
        offset += len(data)
        if len(data) < _CHUNK:
            return b"".join(parts)


own_children = OwnChildren()
"""The one instance for this process."""
