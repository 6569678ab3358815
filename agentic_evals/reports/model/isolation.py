"""Report models of isolation and containment: per trial, and summed up for the run.

Part of ``agentic_evals.report.v2``.
The run summary is derived from the trial records by
:func:`agentic_evals.judge.isolation.summarize`, so a merged report sums its
shards the same way a run sums its trials.
"""

from __future__ import annotations

from typing import Literal

from agentic_evals.contract.vocabulary import IsolationMode, NetworkMode
from agentic_evals.documents.base import OutputModel

IsolationUsed = Literal["overlay", "copy", "none"]


class TrialIsolation(OutputModel):
    """How one trial was isolated and contained."""

    mode: IsolationUsed
    """The view it ran in: ``overlay`` (a private overlay of the tree), ``copy`` (a copy of its
    workspace) or ``none`` (the shared tree)."""
    requested: IsolationMode
    """What the case asked for (``auto`` unless set)."""
    network: NetworkMode
    """``none``: its own network namespace with only loopback; ``host``: the machine's."""
    mechanisms: list[str]
    """Containment in force, e.g. ``cgroup-v1:pids``, ``pids-limit=1024``, ``watchdog``,
    ``subreaper``, ``rlimit:fsize``, ``netns``, ``pdeathsig``."""
    unavailable: list[str]
    """Mechanisms the case asked for that were not available, with the reason."""
    not_copied: list[str] = []
    """Devices, FIFOs and sockets in the workspace input that a copy left out (never read)."""


class Leftover(OutputModel):
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


class IsolationSummary(OutputModel):
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
