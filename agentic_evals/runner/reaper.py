"""Finding every process a trial left behind, so that it can be signalled and reaped.

The runner becomes a Linux child subreaper, so descendants that escape the
trial's process group (``setsid``, double fork) are re-parented to the runner
instead of init and can still be found below it. Which of the runner's
children belong to which trial is decided by :class:`TrialTracker`.

Signalling and reaping go through the pidfds of
:mod:`agentic_evals.runner.handles`.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Collection, Iterable, Mapping

import psutil

from agentic_evals import clock
from agentic_evals.runner.environment import CASE_VAR, RUN_ID_VAR, TRIAL_VAR

# Descendants inherit these, so they tie a process to one trial.
MARKER_KEYS = (RUN_ID_VAR, CASE_VAR, TRIAL_VAR)

_PR_SET_CHILD_SUBREAPER = 36
_SAMPLE_INTERVAL = 0.05
_subreaper_lock = threading.Lock()
_subreaper_pid: int | None = None
_subreaper_ok = False

Identity = tuple[int, float]
"""A process as (pid, create time): unlike a pid alone, it is never reused."""


def enable_subreaper() -> bool:
    """Make this process a child subreaper (once per process); False if unsupported."""
    global _subreaper_pid, _subreaper_ok
    with _subreaper_lock:
        # The flag is not inherited across fork, so remember for which pid it was set.
        if _subreaper_pid != os.getpid():
            _subreaper_ok = _set_subreaper()
            _subreaper_pid = os.getpid()
        return _subreaper_ok


def _set_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    prctl.restype = ctypes.c_int
    return bool(prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def identity(proc: psutil.Process) -> Identity | None:
    """Return ``proc``'s identity, or None when it is gone or cannot be read."""
    try:
        return proc.pid, proc.create_time()
    except psutil.Error:
        return None


def is_live(proc: psutil.Process) -> bool:
    """Return whether ``proc`` is still running (neither a zombie nor gone)."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def in_group(pid: int, pgid: int) -> bool:
    """Return whether process ``pid`` is in process group ``pgid``."""
    try:
        return os.getpgid(pid) == pgid
    except OSError:
        return False


def _process_table() -> tuple[list[psutil.Process], dict[int, list[psutil.Process]]]:
    """Return every process, and the processes by parent pid."""
    everyone: list[psutil.Process] = []
    children: dict[int, list[psutil.Process]] = {}
    # Not psutil.process_iter: its shared cache and .info are not safe across threads.
    for pid in psutil.pids():
        try:
            proc = psutil.Process(pid)
            ppid = proc.ppid()
        except psutil.Error:
            continue
        everyone.append(proc)
        children.setdefault(ppid, []).append(proc)
    return everyone, children


def _session_and_group(pid: int) -> tuple[int, ...]:
    try:
        return os.getsid(pid), os.getpgid(pid)
    except OSError:
        return ()


def _environ(proc: psutil.Process) -> dict[str, str] | None:
    try:
        return proc.environ()
    except psutil.Error:  # zombie, gone, or another user's process
        return None


class TrialTracker:
    """Knows which processes belong to one trial.

    A process belongs to the trial when it descends from the leader, shares the
    leader's process group or session, was seen below the leader earlier, or
    carries this trial's marker values in its environment.

    Args:
        leader_pid: Pid of the trial's leader (its process group and session id).
        env: The environment the trial was started with (holds the markers).
        exclude_pids: Runner children that must never be touched.
        subreaper: Whether escaped descendants are re-parented to this process.
    """

    def __init__(
        self,
        leader_pid: int,
        env: Mapping[str, str],
        exclude_pids: Collection[int],
        *,
        subreaper: bool,
    ) -> None:
        self._leader = leader_pid
        self._markers = {key: env[key] for key in MARKER_KEYS if key in env}
        self._exclude = frozenset(exclude_pids)
        self._subreaper = subreaper
        self._seen: set[Identity] = set()
        self._next_sample = 0.0

    def observe(self, *, force: bool = False) -> None:
        """Remember the leader's current descendants (rate-limited unless ``force``)."""
        now = clock.monotonic()
        if not force and now < self._next_sample:
            return
        self._next_sample = now + _SAMPLE_INTERVAL
        try:
            descendants = psutil.Process(self._leader).children(recursive=True)
        except psutil.Error:
            return
        self._remember(descendants)

    def members(self) -> list[psutil.Process]:
        """Return the trial's processes still present (alive or zombie), leader excluded."""
        everyone, children = _process_table()
        top = [p for p in children.get(os.getpid(), []) if p.pid != self._leader]
        roots = [p for p in top if self._belongs(p)]
        if not self._subreaper:
            # Escapees went to init: only their markers can find them.
            roots += [p for p in everyone if p.pid != self._leader and self._carries_markers(p)]
        found: dict[int, psutil.Process] = {}
        self._add_subtrees(found, children, [self._leader], roots)
        while True:
            # A runner child whose pid is the session or group id of a member created that
            # session or group, so it is ours too: typically the exited middle of a double fork.
            ids = {i for p in found.values() for i in _session_and_group(p.pid)}
            roots = [p for p in top if p.pid in ids.difference(found, self._exclude)]
            if not roots:
                break
            self._add_subtrees(found, children, [], roots)
        result = sorted(found.values(), key=lambda p: p.pid)
        self._remember(result)
        return result

    def _add_subtrees(
        self,
        found: dict[int, psutil.Process],
        children: Mapping[int, list[psutil.Process]],
        parents: list[int],
        roots: list[psutil.Process],
    ) -> None:
        found.update((p.pid, p) for p in roots)
        stack = parents + [p.pid for p in roots]
        while stack:
            for proc in children.get(stack.pop(), []):
                if proc.pid not in found and proc.pid not in self._exclude:
                    found[proc.pid] = proc
                    stack.append(proc.pid)

    def _remember(self, procs: Iterable[psutil.Process]) -> None:
        for proc in procs:
            ident = identity(proc)
            if ident is not None:
                self._seen.add(ident)

    def _belongs(self, proc: psutil.Process) -> bool:
        if proc.pid == self._leader or proc.pid in self._exclude:
            return False
        try:
            # The leader's pid stays reserved as group/session id while anything uses it.
            if self._leader in (os.getpgid(proc.pid), os.getsid(proc.pid)):
                return True
        except OSError:
            pass
        if identity(proc) in self._seen:
            return True
        return self._carries_markers(proc)

    def _carries_markers(self, proc: psutil.Process) -> bool:
        if not self._markers:
            return False
        env = _environ(proc)
        return env is not None and all(env.get(k) == v for k, v in self._markers.items())
