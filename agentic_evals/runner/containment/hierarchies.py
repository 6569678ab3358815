"""The cgroup hierarchies this process may create trial cgroups in.

Read from ``/proc/self/cgroup`` (where the runner is) and
``/proc/self/mountinfo`` (where each hierarchy is mounted). A hierarchy is
usable when the runner may create a directory in its own cgroup there:
trial cgroups always nest below the runner's, so that whatever already
limits or accounts for the runner also covers its trials.

The choice (:func:`choose`), best first:

1. cgroup v2 with the ``pids`` controller delegated: listing, ``cgroup.kill``,
   the pids limit, and the memory limit when ``memory`` is delegated too;
2. the v1 ``pids`` controller (listing and the pids limit), with v1
   ``freezer`` to kill atomically and v1 ``memory`` for memory limits;
3. cgroup v2 without controllers: listing and ``cgroup.kill`` only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Hierarchy:
    """The runner's cgroup in one hierarchy."""

    version: int
    """1 or 2."""
    path: Path
    """The runner's own cgroup directory."""
    controllers: frozenset[str]
    """Controllers trial cgroups created below ``path`` can use."""

    @property
    def name(self) -> str:
        """How the report names it: ``cgroup-v2`` or ``cgroup-v1:pids``."""
        if self.version == 2:
            return "cgroup-v2"
        return "cgroup-v1:" + ",".join(sorted(self.controllers))


@dataclass(frozen=True)
class CgroupChoice:
    """The hierarchies trial cgroups are made in, by job."""

    tracker: Hierarchy
    """Lists and kills the trial's processes."""
    pids: Hierarchy | None
    memory: Hierarchy | None
    freezer: Hierarchy | None
    """v1 only: freezes the trial's processes so that killing them races with nothing."""

    def used(self) -> list[Hierarchy]:
        """Every distinct hierarchy of the choice."""
        found: list[Hierarchy] = []
        for hierarchy in (self.tracker, self.pids, self.freezer, self.memory):
            if hierarchy is not None and hierarchy not in found:
                found.append(hierarchy)
        return found


def _own_paths() -> dict[str, str]:
    """Controllers (comma-joined; ``""`` for v2) to the runner's path in that hierarchy."""
    paths: dict[str, str] = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) == 3:
                paths[parts[1]] = parts[2]
    return paths


def _mounts() -> list[tuple[str, Path, str, set[str]]]:
    """(root within the hierarchy, mount point, fs type, super options) of cgroup mounts."""
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
                found.append((fields[3], Path(fields[4]), tail[0], set(tail[2].split(","))))
    return found


def _directory(mount_root: str, mount_point: Path, own: str) -> Path | None:
    if own != mount_root and not own.startswith(mount_root.rstrip("/") + "/"):
        return None  # the runner's cgroup is not visible through this mount
    relative = own[len(mount_root) :].lstrip("/")
    return mount_point / relative if relative else mount_point


def discover() -> list[Hierarchy]:
    """Every hierarchy where the runner's own cgroup is a directory it may write."""
    try:
        own, mounts = _own_paths(), _mounts()
    except OSError:
        return []
    found: list[Hierarchy] = []
    for root, point, fstype, options in mounts:
        if fstype == "cgroup2":
            key, controllers = "", _v2_controllers(point, root, own.get(""))
        else:
            named = {"pids", "memory", "freezer"} & options
            key = next((k for k in own if named and set(k.split(",")) >= named), "")
            controllers = frozenset(named)
            if not named or not key:
                continue
        path = _directory(root, point, own.get(key, "\0"))
        if path is not None and os.access(path, os.W_OK | os.X_OK) and path.is_dir():
            version = 2 if fstype == "cgroup2" else 1
            if all(h.path != path for h in found):
                found.append(Hierarchy(version, path, controllers))
    return found


def _v2_controllers(point: Path, root: str, own: str | None) -> frozenset[str]:
    """The controllers enabled for the runner's cgroup's children (its subtree_control).

    A run's cgroup below the runner's can pass on only what the runner's own
    cgroup enables for its children.
    """
    if own is None:
        return frozenset()
    path = _directory(root, point, own)
    try:
        text = (path / "cgroup.subtree_control").read_text() if path else ""
    except OSError:
        return frozenset()
    return frozenset(text.split()) & {"pids", "memory"}


def choose(found: list[Hierarchy]) -> CgroupChoice | None:
    """The best use of the hierarchies found (module docstring); None when there is none."""
    v2 = next((h for h in found if h.version == 2), None)
    v1 = {name: h for h in found if h.version == 1 for name in h.controllers}
    if v2 is not None and "pids" in v2.controllers:
        memory = v2 if "memory" in v2.controllers else v1.get("memory")
        return CgroupChoice(tracker=v2, pids=v2, memory=memory, freezer=None)
    if "pids" in v1:
        return CgroupChoice(v1["pids"], v1["pids"], v1.get("memory"), v1.get("freezer"))
    if v2 is not None:
        return CgroupChoice(tracker=v2, pids=None, memory=v1.get("memory"), freezer=None)
    return None
