"""What a trial runs in: its working directory, where its artifacts are, what it changed.

One :class:`TrialView` per trial, whatever the mode:

- :class:`SharedView` (``none``): the skill tree itself;
- :class:`CopyView` (``copy``): a fresh copy of the case's workspace;
- :class:`OverlayView` (``overlay``): the thread's private overlay of the
  skill tree, mounted over the tree's own path, so the trial sees the paths
  it would see without isolation; a case with a workspace also gets a
  private overlay of the workspace input on a fresh directory, where it
  runs and its artifacts resolve, as with a copy.

Changes are relative to the workspace, or, without one, to the fixture
directory (``../`` for paths above it), like artifact paths.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from agentic_evals.oracles.base import OracleContext, PreTrialState
from agentic_evals.reports.model import WorkspaceChangesReport
from agentic_evals.runner.environment import trial_cwd
from agentic_evals.runner.isolation import copy
from agentic_evals.runner.isolation.modes import Mode
from agentic_evals.runner.isolation.overlay import Overlay, TreeView
from agentic_evals.runner.isolation.upper import copy_upper, upper_changes

UPPER_PREFIX = "agentic-evals-upper-"
"""Prefix of a kept upper layer of the skill tree's view (``--keep-workspaces``)."""


@dataclass
class TrialView:
    """A trial's view; :meth:`changes` and :meth:`finish` are called once, after the trial."""

    mode: Mode
    cwd: Path
    """The trial's working directory."""
    context: OracleContext
    """Where its artifacts resolve, and the tree before the trial (no changes recorded yet)."""
    not_copied: list[str] = field(default_factory=list)
    """Special files a copy left out."""

    def changes(self) -> WorkspaceChangesReport | None:
        """What the trial changed; None on the shared tree."""
        return None

    def finish(self, keep: bool) -> str | None:
        """Release the view; with ``keep``, return where the trial's changes were kept."""
        del keep
        return None


def shared_view(fixture_dir: Path, boundary: Path, case_cwd: str | None) -> TrialView:
    """The shared skill tree (``isolation: none``)."""
    context = OracleContext(artifact_root=fixture_dir, boundary=boundary)
    return TrialView("none", trial_cwd(fixture_dir, case_cwd), context)


class CopyView(TrialView):
    """A fresh copy of the workspace input ``source``."""

    def __init__(self, source: Path, case_cwd: str | None) -> None:
        copied = copy.create(source)
        self._root, self._source = copied.root, source
        try:
            self._before = copy.snapshot(copied.root)
        except BaseException:
            copy.remove(copied.root)
            raise
        pre = PreTrialState("copy_source", source, source)
        context = OracleContext(copied.root, copied.root, pre_trial=pre)
        super().__init__("copy", trial_cwd(copied.root, case_cwd), context, copied.skipped)

    def changes(self) -> WorkspaceChangesReport:
        """Compare the copy with its snapshot, hashing only files whose stat changed."""
        return copy.changes(self._before, copy.snapshot(self._root), self._root, self._source)

    def finish(self, keep: bool) -> str | None:
        """Delete the copy, or keep it and return its path."""
        if keep:
            return str(self._root)
        copy.remove(self._root)
        return None


class TreePlace(NamedTuple):
    """Where trials of one case without a workspace run, in one thread's view of the tree."""

    fixture: str
    """The fixture directory relative to the tree (POSIX; ``.`` at the root)."""
    cwd: Path
    context: OracleContext
    """Where artifacts resolve, with the pre-trial state (the lower layer)."""


def tree_place(
    tree: TreeView, fixture_dir: Path, boundary: Path, case_cwd: str | None
) -> TreePlace:
    """Work out a :class:`TreePlace` (once per thread and case: it is the same for every trial)."""
    fixture = fixture_dir.relative_to(boundary).as_posix()
    pre = PreTrialState("lower", tree.lower, tree.lower / fixture)
    context = OracleContext(fixture_dir, boundary, pre_trial=pre)
    return TreePlace(fixture, trial_cwd(fixture_dir, case_cwd), context)


class OverlayView(TrialView):
    """A private overlay of the skill tree, and of the workspace when there is one.

    Args:
        overlay: The thread's current (fresh) overlay of the skill tree.
        place: Where the case's trials run in it.
        workspace: A private overlay of the workspace input, where the trial
            then runs instead (made by :meth:`with_workspace`).
    """

    def __init__(
        self, overlay: Overlay, place: TreePlace, workspace: Overlay | None = None
    ) -> None:
        self._tree_overlay = overlay
        self._fixture = place.fixture
        self._workspace = workspace
        super().__init__("overlay", place.cwd, place.context)

    @classmethod
    def with_workspace(
        cls,
        tree: TreeView,
        overlay: Overlay,
        place: TreePlace,
        workspace: Path,
        case_cwd: str | None,
        tag: str,
    ) -> OverlayView:
        """The view of a case with a workspace: an overlay of the input on a fresh directory.

        ``tag`` is part of the directory's name (the run id), so that the next
        run can tell an empty one left by a dead run.
        """
        boundary = place.context.boundary
        if workspace.is_relative_to(boundary):
            lower = tree.lower / workspace.relative_to(boundary)
        else:
            # The input of a fixture kept outside the skill (its own folder) is no part of
            # the tree's view: it is the lower layer itself (an overlay never writes there).
            lower = workspace
        if not lower.is_dir():
            what = "does not exist" if not lower.exists() else "is not a directory"
            raise copy.WorkspaceUnavailableError(f"workspace input {str(workspace)!r} {what}")
        target = Path(os.path.realpath(tempfile.mkdtemp(prefix=f"{copy.PREFIX}{tag}-")))
        try:
            layer = Overlay(tree.mounts, lower, target)
        except OSError:
            os.rmdir(target)
            raise
        context = OracleContext(target, target, pre_trial=PreTrialState("lower", lower, lower))
        own = TreePlace(".", trial_cwd(target, case_cwd), context)
        return cls(overlay, own, layer)

    def changes(self) -> WorkspaceChangesReport:
        """Read the changes from the upper layer (time proportional to the changes)."""
        layer = self._workspace or self._tree_overlay
        if layer.clean():
            return WorkspaceChangesReport.model_construct(added=[], changed=[], removed=[])
        found = upper_changes(layer.upper, layer.lower, layer.opaque_xattr)
        if self._workspace is not None:
            return found
        if self._fixture == ".":
            return found
        return WorkspaceChangesReport(
            added=sorted(posixpath.relpath(p, self._fixture) for p in found.added),
            changed=sorted(posixpath.relpath(p, self._fixture) for p in found.changed),
            removed=sorted(posixpath.relpath(p, self._fixture) for p in found.removed),
        )

    def finish(self, keep: bool) -> str | None:
        """Unmount the workspace view; with ``keep``, copy the upper layer out first."""
        workspace = self._workspace
        if workspace is None:
            if not keep or self._tree_overlay.clean():
                return None
            kept = Path(tempfile.mkdtemp(prefix=UPPER_PREFIX))
            copy_upper(self._tree_overlay.upper, kept)
            return str(kept)
        self._workspace = None
        target = workspace.target
        # Unmounted first: the directory the trial ran in then holds its changes.
        try:
            workspace.unmount(keep_into=target if keep else None)
        finally:
            if not keep:
                os.rmdir(target)
        return str(target) if keep else None
