"""A case's ``limits``: how each is enforced, and which one a trial exceeded.

The fixture's ``limits`` apply to every case; a case's own keys override
them one by one. ``pids`` defaults to :data:`DEFAULT_PIDS`, so a fork loop
in any case is contained.

- ``memory_mb`` and ``pids`` are cgroup limits on the trial as a whole
  (``memory.max``/``memory.limit_in_bytes``, ``pids.max``); without a cgroup,
  ``memory_mb`` falls back to RLIMIT_AS per process and an explicit ``pids``
  to RLIMIT_NPROC (per user, and ignored for root), both weaker.
- ``cpu_seconds``, ``file_size_mb`` and ``open_files`` are rlimits
  (RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE), set by ``prlimit`` on the
  leader before it runs the command, and inherited by its descendants.

A trial that exceeds a limit FAILs with ``LIMIT_EXCEEDED`` naming it: the
cgroup counted refused forks or an OOM kill, or the leader died of SIGXCPU
or SIGXFSZ (or a shell leader exited 128 plus one of them, reporting its
child's death). Running out of ``open_files`` is an error the program sees
(EMFILE); the runner cannot observe it, so the limit is enforced but never
reported as exceeded.
"""

from __future__ import annotations

import signal
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.reports.model import Problem
from agentic_evals.runner.containment.cgroups import Counters

DEFAULT_PIDS = 1024
"""The pids limit of a case that sets none."""

MIB = 2**20


class TrialLimits(NamedTuple):
    """The limits in force for one case's trials, with where each came from."""

    memory_mb: int | None
    pids: int
    pids_explicit: bool
    """The author set ``pids`` (else it is the default)."""
    cpu_seconds: int | None
    file_size_mb: int | None
    open_files: int | None


def effective_limits(case: Case, fixture: Fixture) -> TrialLimits:
    """The fixture's limits, overridden key by key by the case's."""
    merged: dict[str, int] = {}
    for limits in (fixture.limits, case.limits):
        if limits is not None:
            merged.update({k: v for k, v in limits.model_dump().items() if v is not None})
    pids = merged.get("pids")
    return TrialLimits(
        memory_mb=merged.get("memory_mb"),
        pids=DEFAULT_PIDS if pids is None else pids,
        pids_explicit=pids is not None,
        cpu_seconds=merged.get("cpu_seconds"),
        file_size_mb=merged.get("file_size_mb"),
        open_files=merged.get("open_files"),
    )


def rlimit_options(limits: TrialLimits, *, cgroup_memory: bool, cgroup_pids: bool) -> list[str]:
    """``prlimit`` options for what rlimits must enforce (``--fsize=N:N``...)."""
    options: list[str] = []

    def add(name: str, value: int) -> None:
        options.append(f"--{name}={value}:{value}")

    if limits.cpu_seconds is not None:
        # The soft limit sends SIGXCPU (which names the limit); the hard one kills.
        options.append(f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}")
    if limits.file_size_mb is not None:
        add("fsize", limits.file_size_mb * MIB)
    if limits.open_files is not None:
        add("nofile", limits.open_files)
    if limits.memory_mb is not None and not cgroup_memory:
        add("as", limits.memory_mb * MIB)
    if limits.pids_explicit and not cgroup_pids:
        add("nproc", limits.pids)
    return options


_SIGNAL_LIMITS = {
    signal.SIGXCPU: ("cpu_seconds", "CPU time"),
    signal.SIGXFSZ: ("file_size_mb", "file size"),
}


def exceeded(
    limits: TrialLimits,
    *,
    term_signal: int | None,
    exit_code: int | None,
    before: Counters | None,
    after: Counters | None,
) -> list[Problem]:
    """``LIMIT_EXCEEDED`` problems for every limit the trial ran into."""
    problems: list[Problem] = []
    if before is not None and after is not None:
        refused = after.pids_refused - before.pids_refused
        if refused > 0:
            message = (
                f"the trial reached its pids limit ({limits.pids} processes and threads): "
                f"{refused} fork(s) refused"
            )
            problems.append(_problem("pids", message))
        killed = after.oom_kills - before.oom_kills
        if killed > 0 and limits.memory_mb is not None:
            message = (
                f"the trial exceeded memory_mb={limits.memory_mb}: the memory limit "
                f"killed {killed} process(es)"
            )
            problems.append(_problem("memory_mb", message))
    for signum, (name, what) in _SIGNAL_LIMITS.items():
        value = getattr(limits, name)
        if value is None:
            continue
        if term_signal == signum:
            why = f"the leader was killed by {signum.name}"
        elif exit_code == 128 + signum:
            why = f"the leader exited {exit_code} (a child killed by {signum.name})"
        else:
            continue
        problems.append(
            _problem(name, f"the trial exceeded its {what} limit {name}={value}: {why}")
        )
    return problems


def _problem(limit: str, message: str) -> Problem:
    return Problem(code=codes.LIMIT_EXCEEDED, message=f"{limit}: {message}")
