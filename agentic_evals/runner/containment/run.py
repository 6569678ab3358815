"""A run's containment: its cgroups, watchdog, lease and tools, and each trial's share.

:meth:`RunContainment.start` first reports what dead runs left
(:mod:`.leases`), then sets up what this kernel allows: the run's cgroup
directories, registered with the watchdog; the ``prlimit`` and ``setpriv``
programs for rlimits and the parent-death signal; whether a network
namespace can be made. :meth:`RunContainment.for_trial` gives a trial its
slot and limits, and says which mechanisms are in force and which the case
asked for in vain.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

from agentic_evals.contract.models import Case, Fixture
from agentic_evals.reports.model import Leftover
from agentic_evals.runner.containment import network, watchdog
from agentic_evals.runner.containment.cgroups import RunCgroups, Slot
from agentic_evals.runner.containment.hierarchies import CgroupChoice, choose, discover
from agentic_evals.runner.containment.leases import Lease, previous_leftovers
from agentic_evals.runner.containment.limits import TrialLimits, effective_limits, rlimit_options
from agentic_evals.runner.containment.trial import TrialContainment


class _Policy(NamedTuple):
    limits: TrialLimits
    offline: bool
    wrapper: tuple[str, ...]
    mechanisms: list[str]
    unavailable: list[str]


@dataclass
class _Tools:
    prlimit: str | None
    setpriv: str | None
    network_problem: str | None


@dataclass
class RunContainment:
    """The containment of one run's trials."""

    fixture: Fixture
    cgroups: RunCgroups | None
    watched: bool
    """The watchdog kills the run's cgroups if the runner dies."""
    tools: _Tools
    lease: Lease | None
    subreaper: bool
    leftovers: list[Leftover] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _slots: dict[int, Slot] = field(default_factory=dict)
    _policies: dict[tuple[object, ...], _Policy] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(
        cls, run_id: str, fixture: Fixture, disabled: frozenset[str], *, subreaper: bool
    ) -> RunContainment:
        """Set up the run's containment; what is missing becomes a note, never an error."""
        leftovers = previous_leftovers()
        notes: list[str] = []
        cgroups = _cgroups(run_id, disabled, notes)
        watched = False
        if cgroups is not None and "watchdog" not in disabled:
            try:
                for directory in cgroups.run_dirs:
                    watchdog.guard(directory)
                watched = True
            except OSError as error:
                notes.append(
                    f"the watchdog could not start ({error}): a runner killed by "
                    "SIGKILL may leave trial processes running"
                )
        offline = any((c.network or fixture.network) == "none" for c in fixture.cases)
        problem = None
        if offline:
            problem = (
                "turned off by AGENTIC_EVALS_DISABLE" if "netns" in disabled else network.probe()
            )
        tools = _Tools(
            prlimit=None if "rlimits" in disabled else shutil.which("prlimit"),
            setpriv=None if "pdeathsig" in disabled or watched else shutil.which("setpriv"),
            network_problem=problem,
        )
        if not watched and tools.setpriv is None:
            notes.append(
                "no cgroup watchdog and no setpriv: trial leaders do not die with the "
                "runner; the next run reports what a killed runner left"
            )
        try:
            lease: Lease | None = Lease(run_id, cgroups.run_dirs if cgroups else [])
        except OSError as error:
            lease = None
            notes.append(f"no run lease ({error}): the next run cannot report this run's leftovers")
        return cls(fixture, cgroups, watched, tools, lease, subreaper, leftovers, notes)

    def for_trial(self, case: Case) -> TrialContainment:
        """The containment of one trial of ``case``, in the calling thread's slot."""
        slot = self._slot()
        # Cases that set the same limits and network are contained alike: worked out once.
        key = (case.limits, case.network, slot is not None)
        policy = self._policies.get(key)
        if policy is None:
            policy = self._policies[key] = self._policy(case, slot is not None)
        return TrialContainment(
            policy.limits,
            slot,
            offline=policy.offline,
            wrapper=policy.wrapper,
            mechanisms=policy.mechanisms,
            unavailable=policy.unavailable,
        )

    def _policy(self, case: Case, has_slot: bool) -> _Policy:
        """What contains every trial of ``case`` (the same for all; worked out once)."""
        fixture = self.fixture
        limits = effective_limits(case, fixture)
        choice = self.cgroups.choice if self.cgroups is not None and has_slot else None
        mechanisms, unavailable = _cgroup_mechanisms(choice, limits)
        if self.watched:
            mechanisms.append("watchdog")
        if self.subreaper:
            mechanisms.append("subreaper")
        wrapper: list[str] = []
        if self.tools.setpriv is not None:
            wrapper += [self.tools.setpriv, "--pdeathsig", "KILL", "--"]
            mechanisms.append("pdeathsig")
        options = rlimit_options(
            limits,
            cgroup_memory=choice is not None and choice.memory is not None,
            cgroup_pids=choice is not None and choice.pids is not None,
        )
        if options and self.tools.prlimit is not None:
            wrapper += [self.tools.prlimit, *options, "--"]
            mechanisms += [f"rlimit:{o[2:].split('=')[0]}" for o in options]
        elif options:
            listed = ", ".join(o[2:] for o in options)
            unavailable.append(f"rlimits ({listed}): prlimit is not installed")
        offline = (case.network or fixture.network) == "none"
        if offline and self.tools.network_problem is not None:
            problem = self.tools.network_problem
            unavailable.append(f"network none: {problem}; ran on the host network")
            offline = False
        elif offline:
            mechanisms.append("netns")
        return _Policy(limits, offline, tuple(wrapper), mechanisms, unavailable)

    def _slot(self) -> Slot | None:
        if self.cgroups is None:
            return None
        ident = threading.get_ident()
        with self._lock:
            slot = self._slots.get(ident)
        if slot is None:
            try:
                slot = self.cgroups.new_slot()
            except OSError:
                return None
            with self._lock:
                self._slots[ident] = slot
        return slot

    def trial_done(self, containment: TrialContainment) -> None:
        """After a trial: a slot that could not be emptied is not reused."""
        if containment.slot is not None and not containment.emptied:
            containment.slot.release()
            containment.slot.close()
            with self._lock:
                self._slots.pop(threading.get_ident(), None)

    def close(self) -> None:
        """Kill what is left, remove the run's cgroups, and give up the lease."""
        own = self._slots.pop(threading.get_ident(), None)
        if own is not None:
            own.release()
        with self._lock:
            slots, self._slots = [own, *self._slots.values()], {}
        for slot in slots:
            if slot is not None:
                slot.close()
        if self.cgroups is not None:
            directories = list(self.cgroups.run_dirs)
            self.cgroups.close()
            if self.watched:
                for directory in directories:
                    watchdog.release(directory)
        if self.lease is not None:
            self.lease.close()


def _cgroups(run_id: str, disabled: frozenset[str], notes: list[str]) -> RunCgroups | None:
    if "cgroups" in disabled:
        notes.append("cgroups turned off by AGENTIC_EVALS_DISABLE")
        return None
    choice = choose(discover())
    if choice is None:
        notes.append(
            "no writable cgroup hierarchy here: trial processes are found by the "
            "subreaper, without cgroup limits"
        )
        return None
    try:
        return RunCgroups(choice, run_id)
    except OSError as error:
        notes.append(f"the run's cgroups could not be created ({error})")
        return None


def _cgroup_mechanisms(
    choice: CgroupChoice | None, limits: TrialLimits
) -> tuple[list[str], list[str]]:
    """What the trial's cgroup gives it, and which cgroup limits are missing."""
    mechanisms: list[str] = []
    unavailable: list[str] = []
    if choice is not None:
        # A v1 memory hierarchy of its own is joined only by trials with a memory limit.
        skip = limits.memory_mb is None and choice.memory not in (choice.tracker, choice.pids)
        mechanisms += [h.name for h in choice.used() if not (skip and h == choice.memory)]
    pids = choice is not None and choice.pids is not None
    memory = choice is not None and choice.memory is not None
    if pids:
        mechanisms.append(f"pids-limit={limits.pids}")
    else:
        unavailable.append(f"pids limit {limits.pids}: no pids cgroup here")
    if limits.memory_mb is not None and memory:
        mechanisms.append(f"memory-limit={limits.memory_mb}MiB")
    elif limits.memory_mb is not None:
        unavailable.append(
            f"memory_mb {limits.memory_mb}: no memory cgroup here (RLIMIT_AS "
            "per process instead, where prlimit is installed)"
        )
    return mechanisms, unavailable
