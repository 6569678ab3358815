"""Report models of isolation and containment: per trial, and summed up for the run.

Part of ``agentic_evals.report.v2`` (see :mod:`agentic_evals.reports.model`).
The run summary is derived from the trial records by :func:`summarize`, so a
merged report sums its shards the same way a run sums its trials.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

IsolationUsed = Literal["overlay", "copy", "none"]
IsolationAsked = Literal["auto", "overlay", "copy", "none"]
NetworkUsed = Literal["host", "none"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrialIsolation(_Out):
    """How one trial was isolated and contained."""

    mode: IsolationUsed
    """The view it ran in: ``overlay`` (a private overlay of the tree), ``copy`` (a copy of its
    workspace) or ``none`` (the shared tree)."""
    requested: IsolationAsked
    """What the case asked for (``auto`` unless set)."""
    network: NetworkUsed
    """``none``: its own network namespace with only loopback; ``host``: the machine's."""
    mechanisms: list[str]
    """Containment in force, e.g. ``cgroup-v1:pids``, ``pids-limit=1024``, ``watchdog``,
    ``subreaper``, ``rlimit:fsize``, ``netns``, ``pdeathsig``."""
    unavailable: list[str]
    """Mechanisms the case asked for that were not available, with the reason."""
    not_copied: list[str] = []
    """Devices, FIFOs and sockets in the workspace input that a copy left out (never read)."""


class Leftover(_Out):
    """A process an earlier run left running when it died without cleaning up."""

    run_id: str
    """The run it belongs to."""
    pid: int
    """Its pid."""
    name: str
    """Its process name."""
    still_running: bool
    """It could not be killed (or, found by marker only, was not)."""
    how: Literal["cgroup", "marker"]
    """Found in the run's cgroup (and then killed), or by the run id in its environment."""


class IsolationSummary(_Out):
    """What isolated and contained the trials of the run."""

    modes: dict[str, int]
    """Trials per isolation mode."""
    networks: dict[str, int]
    """Trials per network."""
    mechanisms: dict[str, int]
    """Trials per containment mechanism in force."""
    shared_tree_trials: int
    """Trials that ran on the shared tree (``none``): one at a time, never beside another."""
    notes: list[str]
    """What the run found missing or changed (no cgroups here, a parallel run made serial)."""
    warnings: list[str]
    """The notes, then every requested mechanism that was not available, with its trials."""
    leftovers: list[Leftover] = []
    """What earlier runs that died left running, found at the start of this run."""


def merge_summaries(
    summaries: Iterable[IsolationSummary | None], trials: Iterable[TrialIsolation | None]
) -> IsolationSummary | None:
    """The summary of merged shards: their trials summed again, their notes and leftovers kept."""
    kept = [s for s in summaries if s is not None]
    notes = [note for s in kept for note in s.notes]
    return summarize(trials, notes, [item for s in kept for item in s.leftovers])


def summarize(
    trials: Iterable[TrialIsolation | None],
    notes: Iterable[str] = (),
    leftovers: Iterable[Leftover] = (),
) -> IsolationSummary | None:
    """Sum the trials' isolation records; None when no trial has one."""
    records = [t for t in trials if t is not None]
    notes = list(notes)
    if not records and not notes:
        return None
    modes = Counter(t.mode for t in records)
    warnings = list(dict.fromkeys(notes))
    shortfalls = Counter(item for t in records for item in t.unavailable)
    warnings += [f"{count} trial(s): {item}" for item, count in sorted(shortfalls.items())]
    return IsolationSummary(
        modes=dict(sorted(modes.items())),
        networks=dict(sorted(Counter(t.network for t in records).items())),
        mechanisms=dict(sorted(Counter(m for t in records for m in t.mechanisms).items())),
        shared_tree_trials=modes.get("none", 0),
        notes=list(dict.fromkeys(notes)),
        warnings=warnings,
        leftovers=list(leftovers),
    )
