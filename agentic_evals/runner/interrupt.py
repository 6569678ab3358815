"""Turn SIGINT, SIGTERM and SIGHUP into an exception the run loop can handle.

While trials run, a signal must stop the current process tree, let the
report be written with the unfinished cases NOT_TESTED, and end the run with
128 + the signal number (the first signal's: later ones are ignored). Raising
from the handler makes the waiting trial unwind (its supervisor kills the
tree on the way out) instead of leaving children behind; while a trial is
being spawned, the signal waits (:func:`deferred`) until the trial can be
torn down, so that none is left behind half-started.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from agentic_evals.signals import STOPPING, note

_SIGNALS = STOPPING


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
    """Raise :class:`Interrupted` in the main thread on SIGINT, SIGTERM or SIGHUP.

    Outside the main thread (where handlers cannot be installed) this does
    nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        # Further signals while unwinding are ignored: the first one decides.
        for sig in _SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        note(signum)
        if _deferrals:
            _deferrals[-1].signum = signum  # raised once the trial can be torn down
            return
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in _SIGNALS}
    try:
        # A signal held before the trials (see held()) stops them before the first starts.
        if _holds and _holds[-1].signum is not None:
            signum, _holds[-1].signum = _holds[-1].signum, None
            handler(signum, None)
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class Hold:
    """The signal :func:`held` kept back, if any."""

    def __init__(self) -> None:
        self.signum: int | None = None
        """The first stopping signal that came while no trial ran and not yet acted on."""


_holds: list[Hold] = []
"""The holds in force, innermost last (signals are the process's: the main thread's)."""


@contextmanager
def held() -> Iterator[Hold]:
    """Hold SIGINT, SIGTERM and SIGHUP back until the block ends, except while trials run.

    What the block writes (a report) is written whole: a signal that comes while
    no trial runs is kept (the first; later ones change nothing) instead of
    ending the process half-way. Trials that are about to start do not start
    (:func:`interruptible` acts on the kept signal at once); after them, the
    block reads :attr:`Hold.signum` and ends as an interrupted command would.
    Outside the main thread this holds nothing.
    """
    hold = Hold()
    if threading.current_thread() is not threading.main_thread():
        yield hold
        return

    def keep(signum: int, frame: FrameType | None) -> None:
        note(signum)
        if hold.signum is None:
            hold.signum = signum

    previous = {sig: signal.signal(sig, keep) for sig in _SIGNALS}
    _holds.append(hold)
    try:
        yield hold
    finally:
        _holds.remove(hold)
        for sig, old in previous.items():
            signal.signal(sig, old)


class Deferral:
    """A signal that came while a trial was being spawned, raised by :meth:`deliver`."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def deliver(self) -> None:
        """Raise :class:`Interrupted` for the signal that came during the block, if one did."""
        signum, self.signum = self.signum, None
        if signum is not None:
            raise Interrupted(signum)


_deferrals: list[Deferral] = []
"""The deferrals in force, innermost last (the main thread's only)."""


@contextmanager
def deferred() -> Iterator[Deferral]:
    """Keep a signal that comes during the block from raising until :meth:`Deferral.deliver`.

    Around a spawn: an exception between the fork and the supervisor taking
    the child would leave the child unwatched. The caller delivers the signal
    once the supervisor holds the child (inside the ``try`` that tears it
    down); a block that ends with an error raises it at once instead.
    Outside the main thread (signals reach only the main thread) the block
    defers nothing.
    """
    deferral = Deferral()
    if threading.current_thread() is not threading.main_thread():
        yield deferral
        return
    _deferrals.append(deferral)
    try:
        yield deferral
    except BaseException:
        _deferrals.remove(deferral)
        deferral.deliver()
        raise
    _deferrals.remove(deferral)
