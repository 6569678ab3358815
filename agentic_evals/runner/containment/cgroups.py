"""A cgroup per trial: its processes listed, limited and killed as a unit.

A run makes one directory, ``agentic-evals-<run id>``, below the runner's own
cgroup in each hierarchy it uses (:mod:`.hierarchies`), and each trial
thread a *slot* below that, which holds exactly one trial's processes at a
time: a slot is reused by the thread's next trial only once it is empty.

A trial's leader is born in its slot, so that nothing it starts can be
outside: the spawning thread itself stands in the slot when it spawns the
leader (see :class:`Slot`). Killing uses ``cgroup.kill`` (v2) or freezes
the slot first (v1 ``freezer``), so a fork loop cannot outrun it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import NamedTuple

from agentic_evals.runner.containment.cgroupfs import (
    Reader,
    field,
    kill_cgroup,
    member_pids,
    quiet_write,
    read,
    sweep,
    write,
)
from agentic_evals.runner.containment.hierarchies import CgroupChoice, Hierarchy

RUN_PREFIX = "agentic-evals-"
"""Prefix of a run's cgroup directory (the run id follows)."""

_V2_SPAWN_LOCK = threading.Lock()
_NOTHING = nullcontext()


class Counters(NamedTuple):
    """Cumulative limit events of a slot (compared before and after a trial)."""

    pids_refused: int
    """Forks refused by the pids limit."""
    oom_kills: int
    """Processes the memory limit's OOM killer killed."""


class Slot:
    """One trial thread's cgroup, in every hierarchy of the choice.

    In v1 the thread that owns the slot joins it once and stays (moving a
    thread costs tens of microseconds, which a trial of ``true`` would
    feel): its trials are born there, listing and killing leave it out,
    and ``pids.max`` counts it (the limit plus one). It steps out of the
    freezer cgroup only to freeze the others, and joins a v1 memory cgroup
    only for the spawn of a trial with a memory limit, since v1 charges
    memory to the process's main thread wherever that stands. In v2 a whole
    process moves, so the runner joins for each spawn, one spawn at a time,
    and leaves right after.
    """

    def __init__(self, choice: CgroupChoice, dirs: dict[Hierarchy, Path]) -> None:
        self._choice = choice
        self._dirs = dirs
        self.tracker = dirs[choice.tracker]
        """The directory whose ``cgroup.procs`` lists the trial's processes."""
        memory = choice.memory
        self._resident = [
            h for h in dirs if h.version == 1 and not (h == memory and h != choice.pids)
        ]
        # What a spawn visits (v2, and a v1 memory cgroup with a memory limit), worked out once.
        self._visits = [h for h in dirs if h not in self._resident]
        self._visits_unlimited = [h for h in self._visits if h.version == 2 or h != memory]
        self._joined = False
        self._limits: tuple[int | None, int | None] | None = None
        self._memory_limit: int | None = None
        # v1 caches a cgroup.procs listing per open file for a second: read afresh each time,
        # after a look at pids.current (a counter, read again cheaply) says someone is there.
        self._procs = Reader(self.tracker / "cgroup.procs") if choice.tracker.version == 2 else None
        pids = choice.pids
        self._count = Reader(dirs[pids] / "pids.current") if pids is not None else None
        self._pids_events = Reader(dirs[pids] / "pids.events") if pids is not None else None
        memory = choice.memory
        name = (
            "memory.events" if memory is not None and memory.version == 2 else "memory.oom_control"
        )
        self._oom = Reader(dirs[memory] / name) if memory is not None else None
        self.last_counters = self.read_counters()
        """The counters as last read: a trial's start is the previous trial's end."""

    def configure(self, *, pids: int | None, memory_bytes: int | None) -> None:
        """Set the limits of the next trial (before it is spawned; only what changed)."""
        if self._limits == (pids, memory_bytes):
            return
        self._limits = (pids, memory_bytes)
        if self._choice.pids is not None:
            # A v1 slot holds the runner's thread too.
            extra = 1 if self._choice.pids.version == 1 else 0
            value = "max" if pids is None else str(pids + extra)
            write(self._dirs[self._choice.pids] / "pids.max", value)
        if self._choice.memory is not None:
            self._set_memory(self._dirs[self._choice.memory], memory_bytes)
        self._memory_limit = memory_bytes

    def _set_memory(self, directory: Path, memory_bytes: int | None) -> None:
        assert self._choice.memory is not None
        value = "max" if memory_bytes is None else str(memory_bytes)
        if self._choice.memory.version == 2:
            write(directory / "memory.max", value)
            write(directory / "memory.swap.max", "0" if memory_bytes else "max")
            return
        value = "-1" if memory_bytes is None else value
        names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
        # memsw may not go below memory, so the order depends on the direction.
        for name in names if memory_bytes is not None else names[::-1]:
            if (directory / name).exists():
                write(directory / name, value)

    def spawning(self) -> AbstractContextManager[None]:
        """Stand in the slot while the leader is spawned, so that it is born there."""
        if not self._joined:
            self._move(self._resident, into=True)
            self._joined = True
        visiting = self._visits if self._memory_limit is not None else self._visits_unlimited
        if not visiting:
            return _NOTHING  # the usual v1 case: already standing there
        return self._visiting(visiting)

    @contextmanager
    def _visiting(self, visiting: list[Hierarchy]) -> Iterator[None]:
        lock = _V2_SPAWN_LOCK if any(h.version == 2 for h in visiting) else None
        if lock is not None:
            lock.acquire()
        try:
            self._move(visiting, into=True)
            try:
                yield
            finally:
                self._move(visiting, into=False)
        finally:
            if lock is not None:
                lock.release()

    def _move(self, hierarchies: list[Hierarchy], *, into: bool) -> None:
        """Move the calling thread (v1) or the runner (v2) into the slot, or back."""
        done: list[Hierarchy] = []
        try:
            for hierarchy in hierarchies:
                directory = self._dirs[hierarchy] if into else hierarchy.path
                if hierarchy.version == 2:
                    write(directory / "cgroup.procs", str(os.getpid()))
                else:
                    write(directory / "tasks", str(threading.get_native_id()))
                done.append(hierarchy)
        except OSError:
            if into:
                self._move(done, into=False)
            raise

    def release(self) -> None:
        """The owning thread leaves the slot for good (before the slot is removed)."""
        if self._joined:
            self._joined = False
            for hierarchy in self._resident:
                quiet_write(hierarchy.path / "tasks", str(threading.get_native_id()))

    def pids(self, uncounted: int = 0) -> list[int]:
        """The trial's processes now (never the runner, whose thread may stand here).

        ``uncounted``: tasks known to be there that need no listing (the
        leader, alive or a zombie not yet reaped); with no more than those,
        ``pids.current`` answers without listing anything.
        """
        if self._count is not None:
            assert self._choice.pids is not None
            standing = 1 if self._joined and self._choice.pids in self._resident else 0
            if int(self._count.text() or "0") <= standing + uncounted:
                return []
        text = (
            self._procs.text() if self._procs is not None else read(self.tracker / "cgroup.procs")
        )
        own = os.getpid()
        return [pid for pid in map(int, text.split()) if pid != own]

    def evict(self, pid: int) -> None:
        """Move process ``pid`` out of the slot, back to the runner's cgroup."""
        for hierarchy, directory in self._dirs.items():
            if pid in member_pids(directory):
                quiet_write(hierarchy.path / "cgroup.procs", str(pid))

    def read_counters(self) -> Counters:
        """The slot's limit events so far (then also :attr:`last_counters`)."""
        refused = field(self._pids_events.text(), "max") if self._pids_events else 0
        kills = field(self._oom.text(), "oom_kill") if self._oom else 0
        self.last_counters = Counters(refused, kills)
        return self.last_counters

    def close(self) -> None:
        """Close the files kept open (the slot is not used again)."""
        for reader in (self._procs, self._count, self._pids_events, self._oom):
            if reader is not None:
                reader.close()

    def kill(self) -> bool:
        """Kill every process in the slot but the runner; return whether none is left."""
        if not self.pids():
            return True
        freezer = self._choice.freezer
        if freezer is None:
            return kill_cgroup(self.tracker)
        resident = self._joined and freezer in self._resident
        if resident:  # the runner's own thread must not be frozen with them
            self._move([freezer], into=False)
        try:
            return kill_cgroup(self.tracker, self._dirs[freezer])
        finally:
            if resident:
                self._move([freezer], into=True)


class RunCgroups:
    """The run's cgroup directories and the slots made in them."""

    def __init__(self, choice: CgroupChoice, run_id: str) -> None:
        self.choice = choice
        self.run_dirs: list[Path] = []
        self._slots = 0
        self._lock = threading.Lock()
        try:
            for hierarchy in choice.used():
                directory = hierarchy.path / f"{RUN_PREFIX}{run_id}"
                directory.mkdir()
                self.run_dirs.append(directory)
                if hierarchy.version == 2 and hierarchy.controllers:
                    controls = " ".join(f"+{name}" for name in sorted(hierarchy.controllers))
                    write(directory / "cgroup.subtree_control", controls)
        except OSError:
            self.close()
            raise

    def new_slot(self) -> Slot:
        """Create a slot for one trial thread."""
        with self._lock:
            self._slots += 1
            number = self._slots
        dirs: dict[Hierarchy, Path] = {}
        try:
            for hierarchy, run_dir in zip(self.choice.used(), self.run_dirs, strict=True):
                directory = run_dir / f"t{number}"
                directory.mkdir()
                dirs[hierarchy] = directory
        except OSError:
            for directory in dirs.values():
                os.rmdir(directory)
            raise
        return Slot(self.choice, dirs)

    def close(self) -> None:
        """Kill what is left in any slot and remove every directory of the run."""
        for run_dir in self.run_dirs:
            sweep(run_dir)
        self.run_dirs = []
