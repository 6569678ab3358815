"""Turn SIGINT and SIGTERM into an exception the run loop can handle.

While trials run, a signal must stop the current process tree, let the
report be written with the unfinished cases NOT_TESTED, and end the run with
128 + the signal number. Raising from the handler makes the waiting trial
unwind (its supervisor kills the tree on the way out) instead of leaving
children behind.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Interrupted(BaseException):
    """The run was asked to stop by a signal.

    A ``BaseException`` so that ``except Exception`` blocks in oracle or
    reporting code cannot swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        """Return the signal's name, e.g. ``SIGTERM``."""
        return signal.Signals(self.signum).name


@contextmanager
def interruptible() -> Iterator[None]:
    """Raise :class:`Interrupted` in the main thread on SIGINT or SIGTERM.

    Outside the main thread (where handlers cannot be installed) this does
    nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        # Further signals while unwinding are ignored: the first one decides.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
