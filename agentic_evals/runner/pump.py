"""Moving bytes from a trial's pipes into their sinks while the runner waits.

:class:`PipePump` reads every pipe that has output, also while the runner
waits for pidfds, so the pipes never fill up. It drives a
bare ``epoll`` object: one trial spends most of its runner-side time here,
and the generic ``selectors`` layer costs more per wake-up than the read.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable, Collection, Mapping

from agentic_evals import clock
from agentic_evals.runner.cancel import TrialCancelled
from agentic_evals.runner.capture import StreamSink

READ_SIZE = 64 * 1024
_READY_DRAIN_SECONDS = 1.0
# Readable, or the other end is gone (a pidfd of an exited process, a closed pipe).
_EVENTS = select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR


class PipePump:
    """Copies pipe output into sinks, also while waiting for other descriptors.

    Waiting for pidfds through the pump keeps the pipes drained, so a process
    blocked on a full pipe never stalls the wait.

    Args:
        pipes: Read ends of pipes (not closed by the pump) and their sinks.
        on_output: Called after each chunk that was read.
        cancel_fd: Becomes readable when the trial is to be cancelled; a
            waiting :meth:`wait` then raises :class:`TrialCancelled` (once).
    """

    def __init__(
        self,
        pipes: Mapping[int, StreamSink],
        on_output: Callable[[], None],
        cancel_fd: int | None = None,
    ) -> None:
        self._epoll = select.epoll()
        self._sinks: dict[int, StreamSink] = {}
        self._waited: set[int] = set()
        self._cancel_fd = cancel_fd
        try:
            for fd, sink in pipes.items():
                self._epoll.register(fd, _EVENTS)
                self._sinks[fd] = sink
            if cancel_fd is not None:
                self._epoll.register(cancel_fd, _EVENTS)
        except BaseException:
            self._epoll.close()
            raise
        self._on_output = on_output

    def wait(
        self, fds: Collection[int], deadline: float | None, poll_until: float | None = None
    ) -> set[int]:
        """Pump output until every fd in ``fds`` is readable or ``deadline`` passes.

        Until ``poll_until`` (a monotonic time) the pump polls without sleeping
        (:mod:`agentic_evals.runner.polling`); then it sleeps until something is ready.

        Returns:
            The fds that did not become readable.
        """
        pending = set(fds)
        try:
            for fd in pending:
                self._epoll.register(fd, _EVENTS)
                self._waited.add(fd)
            while pending:
                now = clock.monotonic()
                timeout = None if deadline is None else deadline - now
                sleep = -1.0 if timeout is None else max(timeout, 0.0)
                if poll_until is not None and now < poll_until:
                    sleep = 0.0
                # One zero-timeout pass even when late, so an exit at the deadline still counts.
                for fd, _ in self._epoll.poll(sleep):
                    if fd in self._sinks:
                        self._read(fd)
                    elif fd in self._waited:
                        pending.discard(fd)
                        self._forget(fd)
                    elif fd == self._cancel_fd:
                        # Once: the clean-up that follows waits through this pump too.
                        self._epoll.unregister(fd)
                        self._cancel_fd = None
                        raise TrialCancelled
                if timeout is not None and timeout <= 0:
                    break
        finally:
            # Robust even when a signal handler raised halfway through registering.
            for fd in pending.intersection(self._waited):
                self._forget(fd)
        return pending

    def drain(self, deadline: float | None) -> None:
        """Read until every pipe reached EOF or ``deadline``; None reads only what is ready."""
        # Bounded even for "ready now": a writer could keep a pipe readable forever.
        limit = clock.monotonic() + _READY_DRAIN_SECONDS if deadline is None else deadline
        while self._sinks:
            timeout = 0.0 if deadline is None else max(deadline - clock.monotonic(), 0.0)
            ready = [fd for fd, _ in self._epoll.poll(timeout) if fd in self._sinks]
            for fd in ready:
                self._read(fd)
            if not ready or clock.monotonic() >= limit:
                return

    def close(self) -> None:
        """Release the epoll object (the pipes stay open)."""
        self._epoll.close()

    def _forget(self, fd: int) -> None:
        self._waited.discard(fd)
        self._epoll.unregister(fd)

    def _read(self, fd: int) -> None:
        data = os.read(fd, READ_SIZE)
        if data:
            self._sinks[fd].write(data)
            self._on_output()
        else:  # end of file: the pipe stays open for its owner, but is no longer watched
            del self._sinks[fd]
            self._epoll.unregister(fd)
