"""Handles on a trial's processes: pidfds to signal and reap exactly them.

Processes are signalled and reaped through pidfds, never by bare pid after
discovery, so a recycled pid can never make us kill or reap a stranger, and
``os.waitpid(-1, ...)`` is never used: it would steal exit statuses from the
``Popen`` objects of other threads.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable

import psutil

from agentic_evals.runner.reaper import Identity, identity


class Handle:
    """A pidfd for one process: signals and reaping reach exactly that process."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd

    def signal(self, signum: int) -> None:
        """Send ``signum``; a process that already exited is ignored."""
        try:
            signal.pidfd_send_signal(self.fd, signum)
        except OSError:
            pass

    def reap(self) -> None:
        """Collect the exit status if the process is a zombie child of ours."""
        try:
            os.waitid(os.P_PIDFD, self.fd, os.WEXITED | os.WNOHANG)
        except OSError:
            pass  # ECHILD: not our child, or already reaped by its own parent

    def close(self) -> None:
        """Close the pidfd."""
        os.close(self.fd)


class HandleSet:
    """Handles of one trial's processes, each opened once and closed together."""

    def __init__(self) -> None:
        self._handles: dict[Identity, Handle] = {}

    def open(self, procs: Iterable[psutil.Process]) -> list[Handle]:
        """Return handles for those of ``procs`` that still exist (zombies included)."""
        handles = []
        for proc in procs:
            ident = identity(proc)
            handle = self._handles.get(ident) if ident else None
            if ident and handle is None:
                try:
                    handle = Handle(proc.pid, os.pidfd_open(proc.pid))
                except OSError:
                    continue  # already gone
                # Checked after opening (is_running compares create times), so the fd is
                # known to pin the very process the listing saw, not a pid reuse.
                if not proc.is_running():
                    handle.close()
                    continue
                self._handles[ident] = handle
            if handle is not None:
                handles.append(handle)
        return handles

    def reap_all(self) -> None:
        """Reap every handled process that is a zombie child of ours."""
        for handle in self._handles.values():
            handle.reap()

    def close(self) -> None:
        """Close every pidfd."""
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
