"""Which processes belong to one trial: by descent, group, session, or trial markers."""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Iterable, Mapping

import psutil

from agentic_evals import clock
from agentic_evals.runner.children import CHILDREN_FILES, own_children
from agentic_evals.runner.containment import watchdog
from agentic_evals.runner.environment import CASE_VAR, RUN_ID_VAR, TRIAL_VAR
from agentic_evals.runner.kernel import namespace_of
from agentic_evals.runner.membership import Membership, cgroup_members, is_tracer
from agentic_evals.runner.reaper import (
    TRACER_NAME_PREFIX,
    Identity,
    identity,
    is_live,
    other_leaders,
    process_table,
    subtree_table,
)

# Descendants inherit these, so they tie a process to one trial.
MARKER_KEYS = (RUN_ID_VAR, CASE_VAR, TRIAL_VAR)

_SAMPLE_INTERVAL = 0.05
_ENVIRON_READS = 5
_ENVIRON_SETTLE_SECONDS = 0.01


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
            others = other_leaders(self._leader)
            top_pids = [pid for pid in own_children.pids() if pid not in others]
            if leader_gone and all(pid == self._leader for pid in top_pids):
                # Everything a trial starts stays below the runner (its subreaper): with the
                # leader gone and no child but other trials' leaders, nothing of it is left.
                return []
            everyone: list[psutil.Process] = []
            children = subtree_table(runner, top_pids, self._leader, leader_gone=leader_gone)
        else:
            everyone, children = process_table()
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
