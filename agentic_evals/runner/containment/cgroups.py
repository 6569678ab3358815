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
import signal
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import NamedTuple

from agentic_evals import clock
from agentic_evals.runner.containment.hierarchies import CgroupChoice, Hierarchy

RUN_PREFIX = "agentic-evals-"
"""Prefix of a run's cgroup directory (the run id follows)."""

_V2_SPAWN_LOCK = threading.Lock()
_NOTHING = nullcontext()
_KILL_ROUNDS = 50
_FREEZE_WAIT_SECONDS = 2.0


class Counters(NamedTuple):
    """Cumulative limit events of a slot (compared before and after a trial)."""

    pids_refused: int
    """Forks refused by the pids limit."""
    oom_kills: int
    """Processes the memory limit's OOM killer killed."""


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _field(text: str, name: str) -> int:
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return 0


def member_pids(directory: Path) -> list[int]:
    """The processes in cgroup ``directory`` (empty when it is gone)."""
    return [int(word) for word in _read(directory / "cgroup.procs").split()]


class _Reader:
    """A cgroup file kept open and read again with ``pread``.

    Opening a cgroup file costs tens of microseconds (``cgroup.procs`` builds
    its list on open), reading it again from offset 0 a couple.
    """

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)

    def text(self) -> str:
        parts: list[bytes] = []
        offset = 0
        while chunk := os.pread(self._fd, 65536, offset):
            parts.append(chunk)
            offset += len(chunk)
        return b"".join(parts).decode()

    def close(self) -> None:
        os.close(self._fd)


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
        self._joined = False
        self._limits: tuple[int | None, int | None] | None = None
        self._memory_limit: int | None = None
        # v1 caches a cgroup.procs listing per open file for a second: read afresh each time,
        # after a look at pids.current (a counter, read again cheaply) says someone is there.
        self._procs = (
            _Reader(self.tracker / "cgroup.procs") if choice.tracker.version == 2 else None
        )
        pids = choice.pids
        self._count = _Reader(dirs[pids] / "pids.current") if pids is not None else None
        self._pids_events = _Reader(dirs[pids] / "pids.events") if pids is not None else None
        memory = choice.memory
        name = (
            "memory.events" if memory is not None and memory.version == 2 else "memory.oom_control"
        )
        self._oom = _Reader(dirs[memory] / name) if memory is not None else None
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
            _write(self._dirs[self._choice.pids] / "pids.max", value)
        if self._choice.memory is not None:
            self._set_memory(self._dirs[self._choice.memory], memory_bytes)
        self._memory_limit = memory_bytes

    def _set_memory(self, directory: Path, memory_bytes: int | None) -> None:
        assert self._choice.memory is not None
        value = "max" if memory_bytes is None else str(memory_bytes)
        if self._choice.memory.version == 2:
            _write(directory / "memory.max", value)
            _write(directory / "memory.swap.max", "0" if memory_bytes else "max")
            return
        value = "-1" if memory_bytes is None else value
        names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
        # memsw may not go below memory, so the order depends on the direction.
        for name in names if memory_bytes is not None else names[::-1]:
            if (directory / name).exists():
                _write(directory / name, value)

    def spawning(self) -> AbstractContextManager[None]:
        """Stand in the slot while the leader is spawned, so that it is born there."""
        if not self._joined:
            self._move(self._resident, into=True)
            self._joined = True
        visiting = [h for h in self._dirs if h not in self._resident]
        if self._memory_limit is None:
            visiting = [h for h in visiting if h.version == 2 or h != self._choice.memory]
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
                    _write(directory / "cgroup.procs", str(os.getpid()))
                else:
                    _write(directory / "tasks", str(threading.get_native_id()))
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
                _quiet_write(hierarchy.path / "tasks", str(threading.get_native_id()))

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
            self._procs.text() if self._procs is not None else _read(self.tracker / "cgroup.procs")
        )
        own = os.getpid()
        return [pid for pid in map(int, text.split()) if pid != own]

    def evict(self, pid: int) -> None:
        """Move process ``pid`` out of the slot, back to the runner's cgroup."""
        for hierarchy, directory in self._dirs.items():
            if pid in member_pids(directory):
                _quiet_write(hierarchy.path / "cgroup.procs", str(pid))

    def read_counters(self) -> Counters:
        """The slot's limit events so far (then also :attr:`last_counters`)."""
        refused = _field(self._pids_events.text(), "max") if self._pids_events else 0
        kills = _field(self._oom.text(), "oom_kill") if self._oom else 0
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


def kill_cgroup(tracker: Path, freezer: Path | None = None) -> bool:
    """Kill everything in cgroup ``tracker``; return whether it is empty afterwards.

    v2 has ``cgroup.kill``. In v1 the processes are frozen first, when a
    freezer cgroup is given, so that none can fork or exit (and free its pid
    for reuse) between being listed and being signalled.
    """
    kill_file = tracker / "cgroup.kill"
    for _ in range(_KILL_ROUNDS):
        pids = _others(tracker)
        if not pids:
            return True
        if kill_file.exists():
            _quiet_write(kill_file, "1")
        else:
            frozen = freezer is not None and _freeze(freezer, True)
            for pid in _others(tracker) if frozen else pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if frozen and freezer is not None:
                _freeze(freezer, False)
        _settle(tracker)
    return not _others(tracker)


def _others(tracker: Path) -> list[int]:
    """The processes in ``tracker`` but the runner (a v1 slot may hold one of its threads)."""
    own = os.getpid()
    return [pid for pid in member_pids(tracker) if pid != own]


def _freeze(directory: Path, frozen: bool) -> bool:
    state = "FROZEN" if frozen else "THAWED"
    if not _quiet_write(directory / "freezer.state", state):
        return False
    deadline = clock.monotonic() + _FREEZE_WAIT_SECONDS
    while frozen and _read(directory / "freezer.state").strip() != state:
        if clock.monotonic() > deadline:
            return False
        threading.Event().wait(0.001)
    return True


def _settle(tracker: Path) -> None:
    """Wait a moment for killed processes to leave the cgroup (they are being reaped)."""
    deadline = clock.monotonic() + 0.5
    while _others(tracker) and clock.monotonic() < deadline:
        threading.Event().wait(0.002)


def _quiet_write(path: Path, text: str) -> bool:
    try:
        _write(path, text)
    except OSError:
        return False
    return True


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
                    _write(directory / "cgroup.subtree_control", controls)
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
            for slot in sorted(run_dir.glob("t*")):
                kill_cgroup(slot)
                try:
                    os.rmdir(slot)
                except OSError:
                    pass
            try:
                os.rmdir(run_dir)
            except OSError:
                pass
        self.run_dirs = []
