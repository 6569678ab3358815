"""Cancelling trials that run in worker threads.

A signal reaches only the main thread. When trials run in parallel, the main
thread cancels the others through a :class:`Cancellation`: its descriptor
becomes readable, every waiting trial wakes up in its selector (no polling),
kills its process tree and unwinds with :class:`TrialCancelled`.
"""

from __future__ import annotations

import os
import threading


class TrialCancelled(BaseException):
    """The trial was cancelled because the run is stopping.

    A ``BaseException``, like ``KeyboardInterrupt``, so that no ``except
    Exception`` on the way out can swallow it.
    """


class Cancellation:
    """A one-shot, thread-safe cancellation signal with a pollable descriptor."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        self._lock = threading.Lock()
        self._cancelled = False

    @property
    def fd(self) -> int:
        """Becomes readable once :meth:`cancel` was called."""
        return self._read

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancelled

    def cancel(self) -> None:
        """Wake every trial waiting on :attr:`fd`; later calls do nothing."""
        with self._lock:
            if not self._cancelled:
                self._cancelled = True
                os.write(self._write, b"x")

    def close(self) -> None:
        """Release the descriptors."""
        os.close(self._read)
        os.close(self._write)
