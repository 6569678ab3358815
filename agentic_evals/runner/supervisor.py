"""Supervising one running trial until its whole process tree is gone.

:class:`TrialSupervisor` waits for the leader, kills the tree on timeout,
sweeps up whatever the trial left running and drains the output pipes,
waiting on pipes and pidfds through one selector.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from agentic_evals import clock
from agentic_evals.runner.capture import StreamSink
from agentic_evals.runner.handles import Handle, HandleSet
from agentic_evals.runner.pump import PipePump
from agentic_evals.runner.reaper import Identity, add_leader, discard_leader, in_group, is_live
from agentic_evals.runner.tracker import TrialTracker

if TYPE_CHECKING:
    from agentic_evals.runner.containment.trial import TrialContainment

_FINAL_DRAIN_SECONDS = 2.0
_KILL_WAIT_SECONDS = 5.0
_SWEEP_ROUNDS = 3


class TrialSupervisor:
    """Supervision state of one running trial."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        leader: Handle,
        pump: PipePump,
        tracker: TrialTracker,
        containment: TrialContainment | None = None,
    ) -> None:
        self._proc = proc
        self._containment = containment
        self._leader = leader
        self._pump = pump
        self._tracker = tracker
        self._handles = HandleSet()
        self._orphans: set[int] = set()
        self._empty = True

    @classmethod
    def start(
        cls,
        proc: subprocess.Popen[bytes],
        sinks: tuple[StreamSink, StreamSink],
        env: Mapping[str, str],
        exclude_pids: Collection[int],
        *,
        subreaper: bool,
        cancel_fd: int | None = None,
        preexisting: set[Identity] | None = None,
        containment: TrialContainment | None = None,
    ) -> TrialSupervisor:
        """Begin supervising ``proc``; if even that fails (no fds left), kill it and re-raise."""
        assert proc.stdout is not None and proc.stderr is not None
        pipes = {proc.stdout.fileno(): sinks[0], proc.stderr.fileno(): sinks[1]}
        pump = None
        add_leader(proc.pid)
        if containment is not None:
            containment.leader = proc.pid
        try:
            tracker = TrialTracker(
                proc.pid,
                env,
                exclude_pids,
                subreaper=subreaper,
                preexisting=preexisting,
                membership=containment.membership() if containment is not None else None,
                namespace=containment.namespace if containment is not None else None,
            )
            pump = PipePump(pipes, on_output=tracker.observe, cancel_fd=cancel_fd)
            # Opened before anyone reaps the leader, so the fd surely refers to it.
            leader = Handle(proc.pid, os.pidfd_open(proc.pid))
            return cls(proc, leader, pump, tracker, containment)
        except BaseException:
            if pump is not None:
                pump.close()
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            if containment is not None:
                containment.finished()
            discard_leader(proc.pid)
            proc.stdout.close()
            proc.stderr.close()
            for sink in sinks:
                sink.discard()
            raise

    @property
    def emptied(self) -> bool:
        """Nothing of the trial is left in its cgroup (always true without one)."""
        return self._empty

    @property
    def orphans(self) -> tuple[int, ...]:
        """Pids of descendants that were alive after the leader ended."""
        return tuple(sorted(self._orphans))

    def supervise(self, deadline: float, grace: float, poll_until: float | None = None) -> bool:
        """Wait for the leader, clean up the tree, and return whether it timed out.

        Until ``poll_until`` the wait polls rather than sleeps
        (:mod:`~agentic_evals.runner.polling`).
        """
        timed_out = bool(self._pump.wait([self._leader.fd], deadline, poll_until))
        if timed_out:
            members = self._tracker.members()
            # Escapees (outside the leader's group) are reported; the group dies with the leader.
            self._orphans.update(
                p.pid for p in members if is_live(p) and not in_group(p.pid, self._proc.pid)
            )
            self._terminate([self._leader, *self._handles.open(members)], grace, group=True)
        self._pump.drain(None)
        # Not timed out: the leader's pidfd became readable, so it has exited.
        self._sweep(grace, leader_gone=not timed_out or self._leader_exited())
        self._kill_contained()
        # Output may still be buffered in pipes whose writers were just killed.
        self._pump.drain(clock.monotonic() + _FINAL_DRAIN_SECONDS)
        self._reap()
        return timed_out

    def abort(self) -> None:
        """Kill and reap the whole tree at once (the caller is being interrupted)."""
        for _ in range(2):
            targets = [self._leader, *self._handles.open(self._tracker.members())]
            self._signal(targets, signal.SIGKILL, group=True)
            self._pump.wait([h.fd for h in targets], clock.monotonic() + _KILL_WAIT_SECONDS)
        if self._containment is not None:
            self._containment.kill_rest()
        self._reap()

    def _kill_contained(self) -> None:
        """Kill what the sweep left in the trial's cgroup (a fork loop outrunning it), as a unit."""
        if self._containment is None:
            return
        listed = self._tracker.last_listing
        if listed is None:  # no sweep listed the cgroup since the leader ended
            self._tracker.members(leader_gone=True)
            listed = self._tracker.last_listing or []
        left = [pid for pid in listed if pid != self._proc.pid]
        self._orphans.update(left)
        self._empty = self._containment.kill_rest(known_empty=not left)

    def close(self) -> None:
        """Close pidfds and pipes; the leader is no longer a trial's (it was reaped)."""
        if self._containment is not None:
            self._containment.finished()
        discard_leader(self._proc.pid)
        self._leader.close()
        self._handles.close()
        self._pump.close()
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()

    def _leader_exited(self) -> bool:
        # A pidfd is readable once its process has exited (even if not yet reaped).
        readable, _, _ = select.select([self._leader.fd], [], [], 0)
        return bool(readable)

    def _sweep(self, grace: float, *, leader_gone: bool) -> None:
        for _ in range(_SWEEP_ROUNDS):
            members = self._tracker.members(leader_gone=leader_gone)
            self._handles.open(members)  # zombies too, so that they get reaped
            live = [p for p in members if is_live(p)]
            if not live:
                return
            self._orphans.update(p.pid for p in live)
            self._terminate(self._handles.open(live), grace, group=False)

    def _terminate(self, targets: list[Handle], grace: float, *, group: bool) -> None:
        self._signal(targets, signal.SIGTERM, group=group)
        pending = self._pump.wait([h.fd for h in targets], clock.monotonic() + grace)
        if pending:
            self._signal([h for h in targets if h.fd in pending], signal.SIGKILL, group=group)
            self._pump.wait(pending, clock.monotonic() + _KILL_WAIT_SECONDS)

    def _signal(self, targets: list[Handle], signum: int, *, group: bool) -> None:
        if group:
            # Safe by pid: the unreaped leader keeps its pid from being reused as a group id.
            try:
                os.killpg(self._proc.pid, signum)
            except OSError:
                pass
        for handle in targets:
            handle.signal(signum)

    def _reap(self) -> None:
        self._handles.reap_all()
        # Non-blocking: a leader stuck in the kernel even after SIGKILL must not hang us.
        if self._proc.poll() is None and self._leader_exited():
            # It has exited, but when something above us traces the tree (ptrace), the
            # tracer sees the exit first and its status reaches us a moment later:
            # wait for it (blocking, not polling) rather than report no exit code.
            self._proc.wait()
