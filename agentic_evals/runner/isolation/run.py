"""A run's isolation: each case's mode, decided up front, and each trial's view.

:meth:`RunIsolation.start` finds out what the kernel allows
(:mod:`.support`) and plans every case's mode (:mod:`.modes`) before any trial
runs. :meth:`RunIsolation.open_view` then gives a trial its view in the
calling thread; threads get their private namespace on first use. A trial
on the shared tree (``none``) first takes down the thread's overlay of the
tree, so that it sees the tree itself, and afterwards counts as a change of
the tree: later views are mounted afresh over it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from agentic_evals import codes
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.reports.model import TrialIsolation
from agentic_evals.runner.isolation.copy import WorkspaceUnavailableError
from agentic_evals.runner.isolation.modes import Planned, plan_mode
from agentic_evals.runner.isolation.mounts import ThreadMounts, remove_staging
from agentic_evals.runner.isolation.overlay import TreeView
from agentic_evals.runner.isolation.support import Support, probe
from agentic_evals.runner.isolation.views import (
    CopyView,
    OverlayView,
    TreePlace,
    TrialView,
    shared_view,
    tree_place,
)


class ViewUnavailableError(Exception):
    """The trial's view could not be made; the trial FAILs and nothing runs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _ThreadState:
    mounts: ThreadMounts
    tree: TreeView
    places: dict[str | None, TreePlace] = field(default_factory=dict)
    """By the case's ``cwd``: where its trials run is the same for every trial."""


class RunIsolation:
    """The isolation of one run's trials."""

    def __init__(
        self, fixture: Fixture, fixture_dir: Path, boundary: Path, run_id: str, support: Support
    ) -> None:
        self.support = support
        self.fixture = fixture
        self._fixture_dir = fixture_dir
        self._boundary = boundary
        self._run_id = run_id
        self._plans = {c.name: plan_mode(c, fixture, support.overlay) for c in fixture.cases}
        self._threads: dict[int, _ThreadState] = {}
        self.records: dict[tuple[object, ...], TrialIsolation] = {}
        """Trial records by what they say, shared by the trials they describe."""
        self._lock = threading.Lock()
        self._generation = 0

    @classmethod
    def start(
        cls,
        fixture: Fixture,
        fixture_dir: Path,
        boundary: Path,
        run_id: str,
        disabled: frozenset[str],
    ) -> RunIsolation:
        """Probe the kernel (unless every case runs on the shared tree) and plan every case.

        Copies are probed for too: a private namespace is what tells a copy's
        processes apart in a parallel run without cgroups.
        """
        modes = {c.isolation or fixture.isolation or "auto" for c in fixture.cases}
        if modes != {"none"}:
            support = probe(boundary, disabled)
        else:
            reason = "every case runs on the shared tree"
            support = Support(reason, reason, False)
        return cls(fixture, fixture_dir, boundary, run_id, support)

    def planned(self, case: Case) -> Planned:
        """The case's mode, decided before the run."""
        return self._plans[case.name]

    def exclusive(self, case: Case) -> bool:
        """Whether the case's trials run on the shared tree (so never beside another trial)."""
        return self._plans[case.name].mode == "none"

    def notes(self) -> list[str]:
        """Run-level notes for the summary (why ``auto`` gave some cases no private view)."""
        return sorted({p.note for p in self._plans.values() if p.note is not None})

    def open_view(self, case: Case, workspace: Path | None) -> TrialView:
        """Make the view of one trial of ``case`` in the calling thread.

        Raises:
            ViewUnavailableError: The copy or the mount failed; nothing was left behind.
        """
        mode = self._plans[case.name].mode
        if mode == "none":
            state = self._threads.get(threading.get_ident())
            if state is not None:
                state.tree.discard()  # the trial must see the tree itself
            return shared_view(self._fixture_dir, self._boundary, case.cwd)
        if mode == "copy":
            assert workspace is not None  # the loader requires a workspace for copy
            if self.support.namespaces is None:
                self._thread_state()  # a private namespace tells this trial's processes apart
            try:
                return CopyView(workspace, case.cwd)
            except WorkspaceUnavailableError as error:
                raise ViewUnavailableError(codes.WORKSPACE_UNAVAILABLE, str(error)) from error
        try:
            state = self._thread_state()
            overlay = state.tree.fresh(self._generation)
            place = state.places.get(case.cwd)
            if place is None:
                place = tree_place(state.tree, self._fixture_dir, self._boundary, case.cwd)
                state.places[case.cwd] = place
            if workspace is None:
                return OverlayView(overlay, place)
            return OverlayView.with_workspace(
                state.tree, overlay, place, workspace, case.cwd, self._run_id
            )
        except WorkspaceUnavailableError as error:
            raise ViewUnavailableError(codes.WORKSPACE_UNAVAILABLE, str(error)) from error
        except OSError as error:
            message = f"the trial's overlay could not be mounted: {error}"
            raise ViewUnavailableError(codes.ISOLATION_UNAVAILABLE, message) from error

    def shared_tree_changed(self) -> None:
        """A trial ran on the shared tree: views mounted before it are stale."""
        with self._lock:
            self._generation += 1

    def namespace(self) -> str | None:
        """The calling thread's private mount namespace id, if it has one.

        Only this thread's current trial runs in it, so a process found in it
        belongs to that trial, whatever its environment says.
        """
        state = self._threads.get(threading.get_ident())
        return state.mounts.namespace if state is not None else None

    def _thread_state(self) -> _ThreadState:
        ident = threading.get_ident()
        state = self._threads.get(ident)
        if state is None:
            main = threading.current_thread() is threading.main_thread()
            mounts = ThreadMounts.enter(
                self._run_id, user_namespace=self.support.user_namespace, restore=main
            )
            try:
                tree = TreeView(mounts, self._boundary)
            except OSError:
                mounts.release()
                raise
            state = _ThreadState(mounts, tree)
            with self._lock:
                self._threads[ident] = state
        return state

    def close(self) -> None:
        """Release the calling thread's namespace; remove the other threads' staging.

        Worker threads have ended by now, and their namespaces with them.
        """
        with self._lock:
            states, self._threads = self._threads, {}
        own = threading.get_ident()
        for ident, state in states.items():
            if ident == own:
                state.tree.discard()
                state.mounts.release()
            else:
                remove_staging(state.mounts.staging)
