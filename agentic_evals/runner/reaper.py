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
import time
from collections.abc import Collection, Iterable, Mapping

import psutil

from agentic_evals import clock
from agentic_evals.runner.children import CHILDREN_FILES, child_pids, own_children
from agentic_evals.runner.containment import watchdog
from agentic_evals.runner.environment import CASE_VAR, RUN_ID_VAR, TRIAL_VAR
from agentic_evals.runner.kernel import namespace_of
from agentic_evals.runner.membership import (
    TRACER_NAME_PREFIX,
    Membership,
    cgroup_members,
    is_tracer,
)

# Descendants inherit these, so they tie a process to one trial.
MARKER_KEYS = (RUN_ID_VAR, CASE_VAR, TRIAL_VAR)

_PR_SET_CHILD_SUBREAPER = 36
_SAMPLE_INTERVAL = 0.05
_ENVIRON_READS = 5
_ENVIRON_SETTLE_SECONDS = 0.01
_subreaper_lock = threading.Lock()
_subreaper_pid: int | None = None
_subreaper_ok = False

Identity = tuple[int, float]
"""A process as (pid, create time): unlike a pid alone, it is never reused."""


_leaders_lock = threading.Lock()
_leaders: set[int] = set()


def add_leader(pid: int) -> None:
    """Record that ``pid`` leads a trial in flight (until :func:`discard_leader`).

    Another trial's leader is a child of the runner too; known as a leader,
    it and everything below it are that trial's, and no other trial needs to
    read its environment to tell. The pid stays the leader's until the runner
    reaps it, so it is discarded only then.
    """
    with _leaders_lock:
        _leaders.add(pid)


def discard_leader(pid: int) -> None:
    """Forget a leader recorded by :func:`add_leader` (it was reaped)."""
    with _leaders_lock:
        _leaders.discard(pid)


def _other_leaders(leader: int) -> set[int]:
    with _leaders_lock:
        return _leaders - {leader}


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


def _subtree_table(
    root: int, top: list[int], leader: int, *, leader_gone: bool
) -> dict[int, list[psutil.Process]]:
    """Return the processes below ``root`` by parent pid; the leader only as a parent.

    ``top``: the children of ``root`` to walk down from (just read by the caller).

    Once the leader has exited it has no children (they were re-parented to
    the runner), so it is not even read.

    Walking down from the runner reads a few small files per descendant,
    instead of the whole process table per trial: with the runner as
    subreaper, everything a trial left behind is below it.
    """
    children: dict[int, list[psutil.Process]] = {}
    stack = [root]
    while stack:
        parent = stack.pop()
        for pid in top if parent == root else child_pids(parent):
            if pid == leader:
                if not leader_gone:
                    stack.append(pid)  # never a member; its children are found from its pid
                continue
            stack.append(pid)
            try:
                proc = psutil.Process(pid)
            except psutil.Error:
                continue
            children.setdefault(parent, []).append(proc)
    return children


def runner_children() -> set[Identity]:
    """Return the identities of this process's children (taken before a serial trial)."""
    if CHILDREN_FILES:
        return _identities(own_children.pids())
    return _identities(p.pid for p in psutil.Process().children())


def _identities(pids: Iterable[int]) -> set[Identity]:
    """Return the identities of the processes among ``pids`` that still exist."""
    found: set[Identity] = set()
    for pid in pids:
        try:
            ident = identity(psutil.Process(pid))
        except psutil.Error:
            continue
        if ident is not None:
            found.add(ident)
    return found


def _settled_environ(proc: psutil.Process) -> dict[str, str] | None:
    """Read the environment, again a few times while it reads as empty.

    A process in the middle of ``execve`` briefly shows no environment; a
    process that really has none costs this short, bounded wait only when it
    is found behind a trial.
    """
    env = _environ(proc)
    for _ in range(_ENVIRON_READS):
        if env or env is None and not is_live(proc):
            break
        time.sleep(_ENVIRON_SETTLE_SECONDS)
        env = _environ(proc)
    return env


def _name(proc: psutil.Process) -> str:
    try:
        return proc.name()
    except psutil.Error:
        return ""


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
        preexisting: Given when no other trial runs at the same time (a serial
            run): the runner's children from before the trial started. Any
            other runner child is then this trial's unless its environment
            names another trial. Markers alone can be read too early (a process
            in the middle of ``execve`` shows no environment), so this is what
            makes serial attribution certain.
        membership: Lists the trial's processes from its cgroup: then nothing
            else is needed, or read, to know them. The runner's own exec
            tracer, born in the cgroup, is moved out of it (it is reaped by
            the tracing, after the trial).
        namespace: The trial's private mount namespace (``mnt:[inode]``), which
            no other trial runs in: a runner child in it is the trial's.
    """

    def __init__(
        self,
        leader_pid: int,
        env: Mapping[str, str],
        exclude_pids: Collection[int],
        *,
        subreaper: bool,
        preexisting: set[Identity] | None = None,
        membership: Membership | None = None,
        namespace: str | None = None,
    ) -> None:
        self._membership = membership
        self._last_listing: list[int] | None = None
        self._namespace = namespace
        self._leader = leader_pid
        self._markers = {key: env[key] for key in MARKER_KEYS if key in env}
        # The runner's watchdog is a child of the runner too, and no trial's.
        keeper = watchdog.pid()
        self._exclude = frozenset(exclude_pids) | ({keeper} if keeper is not None else set())
        self._subreaper = subreaper
        self._seen: set[Identity] = set()
        self._next_sample = 0.0
        self._exclusive = preexisting is not None and subreaper
        self._before = preexisting or set()

    def observe(self, *, force: bool = False) -> None:
        """Remember the leader's current descendants (rate-limited unless ``force``)."""
        if self._membership is not None:
            return  # the cgroup knows them, however they left the tree
        now = clock.monotonic()
        if not force and now < self._next_sample:
            return
        self._next_sample = now + _SAMPLE_INTERVAL
        try:
            descendants = psutil.Process(self._leader).children(recursive=True)
        except psutil.Error:
            return
        self._remember(descendants)

    def members(self, *, leader_gone: bool = False) -> list[psutil.Process]:
        """Return the trial's processes still present (alive or zombie), leader excluded.

        ``leader_gone``: the leader has exited, so nothing is below it any more.
        """
        if self._membership is not None:
            return self._listed(self._membership, leader_gone)
        runner = os.getpid()
        if self._subreaper and CHILDREN_FILES:
            others = _other_leaders(self._leader)
            top_pids = [pid for pid in own_children.pids() if pid not in others]
            if leader_gone and all(pid == self._leader for pid in top_pids):
                # Everything a trial starts stays below the runner (its subreaper): with the
                # leader gone and no child but other trials' leaders, nothing of it is left.
                return []
            everyone: list[psutil.Process] = []
            children = _subtree_table(runner, top_pids, self._leader, leader_gone=leader_gone)
        else:
            everyone, children = _process_table()
        top = [p for p in children.get(runner, []) if p.pid != self._leader]
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

    @property
    def last_listing(self) -> list[int] | None:
        """The live processes of the trial at the last :meth:`members` after the leader ended."""
        return self._last_listing

    def _listed(self, membership: Membership, leader_gone: bool) -> list[psutil.Process]:
        found = cgroup_members(membership, self._leader, self._exclude)
        self._remember(found)
        self._last_listing = [p.pid for p in found if is_live(p)] if leader_gone else None
        return found

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
        ident = identity(proc)
        if ident in self._seen:
            return True
        if self._namespace is not None and namespace_of(proc.pid) == self._namespace:
            return not is_tracer(proc)
        if self._carries_markers(proc):
            return True
        return self._exclusive and ident not in self._before and not self._foreign(proc)

    def _foreign(self, proc: psutil.Process) -> bool:
        """Whether ``proc``'s environment names another trial, or it is an exec tracer."""
        env = _environ(proc)
        if not env:
            # Exiting: only its name is left to tell the runner's own tracer apart.
            return _name(proc).startswith(TRACER_NAME_PREFIX)
        found = {key: env[key] for key in MARKER_KEYS if key in env}
        return bool(found) and any(found.get(k) != v for k, v in self._markers.items())

    def _carries_markers(self, proc: psutil.Process) -> bool:
        if not self._markers:
            return False
        env = _settled_environ(proc)
        return env is not None and all(env.get(k) == v for k, v in self._markers.items())
