"""``network: none``: a trial in a fresh network namespace with only loopback.

The spawning thread steps into a new network namespace (``unshare`` applies
to the calling thread), brings ``lo`` up there, spawns the leader, which
inherits the namespace, and steps back into the one it came from. The
trial's processes reach nothing outside: no other host, and no listener of
the machine's own loopback either. The namespace goes when they do.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from agentic_evals.runner import kernel

_thread = threading.local()


def _home() -> int:
    """The calling thread's own network namespace, to come back to (opened once)."""
    fd: int | None = getattr(_thread, "home", None)
    if fd is None:
        fd = kernel.open_namespace("net")
        _thread.home = fd
    return fd


def probe() -> str | None:
    """Why ``network: none`` is not available here; None when it is."""
    try:
        with offline():
            pass
    except OSError as error:
        return f"cannot create a network namespace: {error.strerror or error}"
    return None


@contextmanager
def offline() -> Iterator[None]:
    """Run the body (a spawn) in a new network namespace with only loopback up.

    Raises:
        OSError: The kernel refused; the thread is still in its own namespace.
    """
    home = _home()
    kernel.unshare(kernel.CLONE_NEWNET)
    try:
        kernel.loopback_up()
        yield
    finally:
        kernel.setns(home, kernel.CLONE_NEWNET)


def close_thread_state() -> None:
    """Close the calling thread's saved namespace descriptor, if any."""
    fd = getattr(_thread, "home", None)
    if fd is not None:
        os.close(fd)
        _thread.home = None
