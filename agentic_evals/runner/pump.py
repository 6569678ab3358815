"""Moving bytes from a trial's pipes into their sinks while the runner waits.

:class:`PipePump` reads every pipe that has output, also while the runner
waits for pidfds, so the pipes never fill up and nothing polls.
"""

from __future__ import annotations

import os
import selectors
from collections.abc import Callable, Collection, Mapping

from agentic_evals import clock
from agentic_evals.runner.cancel import TrialCancelled
from agentic_evals.runner.capture import StreamSink

READ_SIZE = 64 * 1024
_READY_DRAIN_SECONDS = 1.0
_CANCEL = object()


class PipePump:
    """Copies pipe output into sinks, also while waiting for other descriptors.

    Waiting for pidfds through the pump keeps the pipes drained, so a process
    blocked on a full pipe never stalls the wait, and nothing polls.

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
        self._selector = selectors.DefaultSelector()
        for fd, sink in pipes.items():
            self._selector.register(fd, selectors.EVENT_READ, sink)
        if cancel_fd is not None:
            self._selector.register(cancel_fd, selectors.EVENT_READ, _CANCEL)
        self._open = len(pipes)
        self._on_output = on_output

    def wait(self, fds: Collection[int], deadline: float | None) -> set[int]:
        """Pump output until every fd in ``fds`` is readable or ``deadline`` passes.

        Returns:
            The fds that did not become readable.
        """
        pending = set(fds)
        try:
            for fd in pending:
                self._selector.register(fd, selectors.EVENT_READ, None)
            while pending:
                timeout = None if deadline is None else deadline - clock.monotonic()
                # One zero-timeout pass even when late, so an exit at the deadline still counts.
                for key, _ in self._selector.select(None if timeout is None else max(timeout, 0)):
                    if key.data is _CANCEL:
                        # Once: the clean-up that follows waits through this pump too.
                        self._selector.unregister(key.fd)
                        raise TrialCancelled
                    if key.data is None:
                        pending.discard(key.fd)
                        self._selector.unregister(key.fd)
                    else:
                        self._read(key)
                if timeout is not None and timeout <= 0:
                    break
        finally:
            # Robust even when a signal handler raised halfway through registering.
            registered = self._selector.get_map()
            for fd in pending:
                if fd in registered:
                    self._selector.unregister(fd)
        return pending

    def drain(self, deadline: float | None) -> None:
        """Read until every pipe reached EOF or ``deadline``; None reads only what is ready."""
        # Bounded even for "ready now": a writer could keep a pipe readable forever.
        limit = clock.monotonic() + _READY_DRAIN_SECONDS if deadline is None else deadline
        while self._open:
            timeout = 0.0 if deadline is None else max(deadline - clock.monotonic(), 0.0)
            events = [(k, e) for k, e in self._selector.select(timeout) if k.data is not _CANCEL]
            for key, _ in events:
                self._read(key)
            if not events or clock.monotonic() >= limit:
                return

    def close(self) -> None:
        """Release the selector (the pipes stay open)."""
        self._selector.close()

    def _read(self, key: selectors.SelectorKey) -> None:
        data = os.read(key.fd, READ_SIZE)
        if data:
            key.data.write(data)
            self._on_output()
        else:
            self._selector.unregister(key.fd)
            self._open -= 1
