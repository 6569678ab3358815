"""A trial's processes as its cgroup lists them, less the runner's own exec tracer.

With a cgroup, :class:`~agentic_evals.runner.tracker.TrialTracker` needs no
walk of the process tree and reads no environment: every process in the
trial's cgroup is the trial's, however it left the leader's tree. The one
exception is the runner's own exec tracer (strace), which the leader forks
before it runs the command, so that it is born in the cgroup: it is known by
its random per-trial name and moved out of the cgroup, to be reaped by the
tracing after the trial.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

import psutil

from agentic_evals.runner.environment import TRIAL_VAR
from agentic_evals.runner.reaper import TRACER_NAME_PREFIX


class Membership(Protocol):
    """A trial's cgroup, as the tracker uses it."""

    def pids(self) -> list[int]:
        """The processes in the trial's cgroup."""
        ...

    def evict(self, pid: int) -> None:
        """Move a process that is not the trial's (the exec tracer) out of the cgroup."""
        ...

    @property
    def tracer_name(self) -> str | None:
        """The exact process name of the trial's exec tracer, if it is traced."""
        ...


def is_tracer(proc: psutil.Process, name: str | None = None) -> bool:
    """Whether ``proc`` is the runner's own exec tracer.

    Named exactly ``name`` (a random name per trial) when it is known; else
    named with the tracer prefix and naming no trial (an exiting tracer shows
    only its name).
    """
    try:
        found = proc.name()
        if name is not None:
            return found == name
        if not found.startswith(TRACER_NAME_PREFIX):
            return False
        return not proc.environ().get(TRIAL_VAR, "").isdigit()
    except psutil.ZombieProcess:
        return name is None
    except psutil.Error:
        return False


def cgroup_members(
    membership: Membership, leader: int, exclude: Collection[int]
) -> list[psutil.Process]:
    """The trial's processes in its cgroup (alive or zombie), leader and tracer left out."""
    found = []
    tracer = membership.tracer_name
    for pid in sorted(set(membership.pids())):
        if pid == leader or pid in exclude:
            continue
        try:
            proc = psutil.Process(pid)
        except psutil.Error:
            continue
        if tracer is not None and is_tracer(proc, tracer):
            membership.evict(pid)
            continue
        found.append(proc)
    return found
