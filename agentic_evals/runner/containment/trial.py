"""The containment of one trial: what happens around its spawn, and what it ran into.

:class:`TrialContainment` is handed to the process layer
(:func:`agentic_evals.runner.process.run_process`):

- :meth:`~TrialContainment.wrap` prefixes the command with ``prlimit`` (the
  rlimits) and, where no cgroup will kill the trial with the runner, with
  ``setpriv --pdeathsig KILL``, so the leader dies when the runner does;
- :meth:`~TrialContainment.spawning` surrounds the spawn, so that the leader
  is born in the trial's cgroup, and :meth:`~TrialContainment.spawn` makes it,
  for ``network: none`` in a fresh network namespace;
- :meth:`~TrialContainment.members` lists the trial's processes from its
  cgroup, which no process can leave by clearing its environment or
  starting a session (None without a cgroup: the subreaper finds them);
- :meth:`~TrialContainment.kill_rest` kills whatever is left as a unit;
- :meth:`~TrialContainment.exceeded` names the limits the trial ran into.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from agentic_evals.reports.model import Problem
from agentic_evals.runner.containment import network
from agentic_evals.runner.containment.cgroups import Counters, Slot
from agentic_evals.runner.containment.limits import MIB, TrialLimits, exceeded

_NOTHING = nullcontext()
T = TypeVar("T")


class TrialContainment:
    """Containment of one trial (see the module docstring)."""

    def __init__(
        self,
        limits: TrialLimits,
        slot: Slot | None,
        *,
        offline: bool,
        wrapper: Sequence[str],
        mechanisms: list[str],
        unavailable: list[str],
    ) -> None:
        self.limits = limits
        self.slot = slot
        self.offline = offline
        """The trial runs in a network namespace of its own (``network: none`` in force)."""
        self.wrapper = tuple(wrapper)
        self.mechanisms = mechanisms
        """What contains the trial, for the report."""
        self.unavailable = unavailable
        """What the case asked for that is not there, for the report."""
        self.tracer_name: str | None = None
        """The process name of the trial's exec tracer, which is born in its cgroup."""
        self.leader: int | None = None
        """The trial's leader, once spawned."""
        self.emptied = False
        """The trial's cgroup was emptied after the trial (its slot can be reused)."""
        self.namespace: str | None = None
        """The private mount namespace the trial runs in, when no other trial does."""
        self._before: Counters | None = None
        self._after: Counters | None = None
        self._offline: network.OfflineSpawner[Any] | None = None

    def wrap(self, argv: Sequence[str], *, startable: bool) -> tuple[str, ...]:
        """The argv to spawn; a program that cannot start is spawned bare, to report it."""
        if not self.wrapper or not startable:
            return tuple(argv)
        return (*self.wrapper, *argv)

    def spawning(self) -> AbstractContextManager[None]:
        """Surround the spawn of the leader, so that it is born in the trial's cgroup."""
        if self.slot is None:
            return _NOTHING
        memory = None if self.limits.memory_mb is None else self.limits.memory_mb * MIB
        self.slot.configure(pids=self.limits.pids, memory_bytes=memory)
        self._before = self.slot.last_counters
        return self.slot.spawning()

    def spawn(self, start: Callable[[], T]) -> T:
        """Call ``start``, which spawns the leader: for ``network: none`` in a new namespace.

        Raises:
            OSError: The network namespace could not be made; nothing was spawned.
        """
        if not self.offline:
            return start()
        spawner: network.OfflineSpawner[T] = network.OfflineSpawner()
        self._offline = spawner
        return spawner.spawn(start)

    def finished(self) -> None:
        """The trial's processes are all gone: release what its spawn held."""
        if self._offline is not None:
            self._offline.release()
            self._offline = None

    def membership(self) -> TrialContainment | None:
        """What lists the trial's processes from its cgroup; None without a cgroup."""
        return self if self.slot is not None else None

    def pids(self) -> list[int]:
        """The processes in the trial's cgroup but its leader (as a reaper ``Membership``).

        Asked while the trial is supervised: its leader, alive or a zombie
        that is reaped last, is always there.
        """
        return [p for p in self.slot.pids(uncounted=1) if p != self.leader] if self.slot else []

    def evict(self, pid: int) -> None:
        """Move the runner's own exec tracer out of the trial's cgroup."""
        if self.slot is not None:
            self.slot.evict(pid)

    def members(self) -> list[int] | None:
        """The trial's processes from its cgroup but its leader; None when it has none."""
        return self.pids() if self.slot is not None else None

    def kill_rest(self, *, known_empty: bool = False) -> bool:
        """Kill every process left in the trial's cgroup; whether none is left.

        ``known_empty``: the caller just listed the cgroup and found nothing.
        """
        if self.slot is None:
            return True
        self.emptied = known_empty or self.slot.kill()
        self._after = self.slot.read_counters()
        return self.emptied

    def exceeded(self, term_signal: int | None, exit_code: int | None) -> list[Problem]:
        """``LIMIT_EXCEEDED`` problems for the limits the finished trial ran into."""
        if self.slot is not None and self._after is None:
            self._after = self.slot.read_counters()
        if self._after == self._before and term_signal is None and (exit_code or 0) < 128:
            return []  # the usual case, decided without the rules
        return exceeded(
            self.limits,
            term_signal=term_signal,
            exit_code=exit_code,
            before=self._before,
            after=self._after,
        )
