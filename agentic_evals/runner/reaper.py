"""Finding every process a trial left behind, so that it can be signalled and reaped.

The runner becomes a Linux child subreaper, so descendants that escape the
trial's process group (``setsid``, double fork) are re-parented to the runner
instead of init and can still be found below it. Which of the runner's
children belong to which trial is decided by
:class:`~agentic_evals.runner.tracker.TrialTracker`.

Signalling and reaping go through the pidfds of
:mod:`agentic_evals.runner.handles`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable

import psutil

from agentic_evals.runner import kernel
from agentic_evals.runner.children import CHILDREN_FILES, child_pids, own_children

TRACER_NAME_PREFIX = "ae-trace-"
"""Process name of the runner's own exec tracers (they run detached, under the runner)."""

_PR_SET_CHILD_SUBREAPER = 36
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


def other_leaders(leader: int) -> set[int]:
    """The trial leaders known to the runner, besides ``leader``."""
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
    try:
        kernel.prctl(_PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError):
        return False
    return True


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


def process_table() -> tuple[list[psutil.Process], dict[int, list[psutil.Process]]]:
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


def subtree_table(
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
