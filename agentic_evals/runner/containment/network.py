"""``network: none``: a trial in a fresh network namespace with only loopback.

The leader is spawned by a helper thread that first steps into a new network
namespace (``unshare`` applies to the calling thread) and brings ``lo`` up
there; the leader inherits the namespace, and the thread's mount namespace
and cgroups, which it shares with the trial thread that started it. The
helper never steps back: a runner in a user namespace of its own may enter
network namespaces it made, but not return to the machine's. It waits until
the trial is over, because a leader's parent-death signal follows the thread
that spawned it. The trial's processes reach nothing outside: no other host,
and no listener on the machine's own loopback either. The namespace goes
when they do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from agentic_evals.runner import kernel

T = TypeVar("T")


class OfflineSpawner(Generic[T]):
    """Runs one spawn in a new network namespace, from a helper thread kept until released."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def spawn(self, start: Callable[[], T]) -> T:
        """Call ``start`` (which spawns the leader) in a fresh network namespace.

        Raises:
            OSError: The namespace could not be made; nothing was spawned.
        """
        started = threading.Event()
        outcome: list[T] = []
        failure: list[BaseException] = []

        def helper() -> None:
            try:
                kernel.unshare(kernel.CLONE_NEWNET)
                kernel.loopback_up()
                outcome.append(start())
            except BaseException as error:  # handed to the caller, which raises it
                failure.append(error)
            finally:
                started.set()
            self._done.wait()

        self._thread = threading.Thread(target=helper, name="agentic-evals-offline", daemon=True)
        self._thread.start()
        started.wait()
        if failure:
            self.release()
            raise failure[0]
        return outcome[0]

    def release(self) -> None:
        """The trial is over: let the helper thread end."""
        self._done.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def probe() -> str | None:
    """Why ``network: none`` is not available here; None when it is."""
    spawner: OfflineSpawner[None] = OfflineSpawner()
    try:
        spawner.spawn(lambda: None)
    except OSError as error:
        return f"cannot create a network namespace: {error.strerror or error}"
    finally:
        spawner.release()
    return None
