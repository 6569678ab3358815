"""Run leases: finding what a run that died without cleaning up left behind.

Every run holds a lease for as long as it lives: a file
``$TMPDIR/agentic-evals-runs/<run id>`` locked with ``flock``, naming the
runner's pid and its cgroup directories. The kernel drops the lock when the
runner exits in any way, so a lease whose lock can be taken belongs to a run
that is gone. The next run looks for such leases and reports, per dead run:

- processes still in its cgroups (which the watchdog should have killed;
  they are killed now);
- where there were no cgroups, processes still carrying its run id in their
  environment (``AGENTIC_EVALS_RUN_ID``): reported, not killed, since a
  marker is a weaker identification than a cgroup;
- its empty staging directories, which are removed.

A lease is deleted once nothing of its run is left alive.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import psutil

from agentic_evals.reports.model import Leftover
from agentic_evals.runner.containment.cgroupfs import member_pids, sweep
from agentic_evals.runner.environment import RUN_ID_VAR
from agentic_evals.runner.isolation.copy import PREFIX as WORKSPACE_PREFIX
from agentic_evals.runner.isolation.mounts import STAGING_PREFIX, remove_staging

LEASE_DIR = "agentic-evals-runs"


def lease_dir() -> Path:
    """Where the leases of this machine's runs are."""
    return Path(tempfile.gettempdir()) / LEASE_DIR


class Lease:
    """This run's lease, held (locked) until :meth:`close`."""

    def __init__(self, run_id: str, cgroup_dirs: list[Path]) -> None:
        directory = lease_dir()
        directory.mkdir(mode=0o1777, exist_ok=True)
        self.path = directory / run_id
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        record = {"pid": os.getpid(), "cgroups": [str(d) for d in cgroup_dirs]}
        os.write(self._fd, json.dumps(record).encode())

    def close(self) -> None:
        """Give the lease up: the run cleaned up after itself."""
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)


def _read_if_dead(path: Path) -> dict[str, Any] | None:
    """The lease's record when its run is gone (its lock can be taken), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return None  # held: that run is alive
        text = os.read(fd, 65536)
    finally:
        os.close(fd)
    try:
        record = json.loads(text or b"{}")
    except ValueError:
        record = {}
    return record if isinstance(record, dict) else {}


def previous_leftovers() -> list[Leftover]:
    """Report (and where certain, kill) what dead runs left running."""
    try:
        leases = sorted(lease_dir().iterdir())
    except OSError:
        return []
    dead = {path: record for path in leases if (record := _read_if_dead(path)) is not None}
    if not dead:
        return []  # the usual case: no process table is read
    # Cgroups first: what is killed there is not also reported by its marker.
    swept = {path: _in_cgroups(path.name, record) for path, record in dead.items()}
    marked = _by_marker({path.name for path in dead})
    found: list[Leftover] = []
    for path, left in swept.items():
        run_id = path.name
        left = left + [item for item in marked if item.run_id == run_id]
        found += left
        _remove_staging(run_id)
        if not any(item.still_running for item in left):
            try:
                path.unlink()
            except OSError:
                pass
    return found


def _in_cgroups(run_id: str, record: dict[str, Any]) -> list[Leftover]:
    """Kill what is left in the dead run's cgroups; one leftover per process found."""
    seen: list[tuple[Path, int, str]] = []
    for text in record.get("cgroups", []):
        sweep(Path(str(text)), lambda slot, pids: seen.extend((slot, p, _name(p)) for p in pids))
    return [
        Leftover(run_id=run_id, pid=pid, name=name, still_running=bool(member_pids(slot)),
                 how="cgroup")
        for slot, pid, name in seen
    ]  # fmt: skip


def _by_marker(run_ids: set[str]) -> list[Leftover]:
    """Processes whose environment names one of the dead runs (one walk of the process table)."""
    found: list[Leftover] = []
    for pid in psutil.pids():
        try:
            proc = psutil.Process(pid)
            run_id = proc.environ().get(RUN_ID_VAR)
            if run_id not in run_ids:
                continue
            name = proc.name()
        except psutil.Error:
            continue
        found.append(Leftover(run_id=run_id, pid=pid, name=name, still_running=True, how="marker"))
    return found


def _name(pid: int) -> str:
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return ""


def _remove_staging(run_id: str) -> None:
    """Remove the dead run's empty staging and workspace mount directories."""
    temporary = Path(tempfile.gettempdir())
    for prefix in (STAGING_PREFIX, WORKSPACE_PREFIX):
        for path in temporary.glob(f"{prefix}{run_id}-*"):
            remove_staging(path)
