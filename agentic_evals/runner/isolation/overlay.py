"""Overlay mounts: a lower tree seen through a fresh, private upper layer.

An :class:`Overlay` is one mount in a thread's private namespace
(:class:`~agentic_evals.runner.isolation.mounts.ThreadMounts`): the lower
tree as it was before the run (a bind mount), an upper layer and a work
directory in the staging tmpfs, mounted on ``target``. Mounting and
unmounting cost the same whatever the tree's size. Whatever the trial
writes lands in the upper layer, so the upper layer *is* the list of what
it changed (:mod:`agentic_evals.runner.isolation.upper`).

The view of the skill tree is mounted over the skill tree's own path, so
that trials see the paths they would see without isolation. It is reused by
the thread's next trial while its upper layer is still empty (the trial
wrote nothing), since it then shows exactly the lower tree; a trial that
wrote anything gets a fresh one.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from agentic_evals.runner import kernel
from agentic_evals.runner.isolation.mounts import ThreadMounts
from agentic_evals.runner.isolation.upper import copy_upper

# Set explicitly: a metacopy upper holds no data and a redirect names another
# path, and the change reader relies on full copies and plain whiteouts.
_ROOT_OPTIONS = ",redirect_dir=off,index=off,metacopy=off"
# Mounted from a user namespace the kernel wants user.* xattrs, and turns those features off.
_USER_NS_OPTIONS = ",userxattr"


def _escape(path: Path) -> str:
    """A path as an overlay option value (commas and colons separate values)."""
    return str(path).replace("\\", "\\\\").replace(",", "\\,").replace(":", "\\:")


class Overlay:
    """One overlay mount of ``lower`` on ``target`` with its own upper layer."""

    def __init__(self, mounts: ThreadMounts, lower: Path, target: Path) -> None:
        self.lower = lower
        """The lower layer: the tree the trial started from, never written to."""
        self.target = target
        """Where the view is mounted (what the trial sees)."""
        self.upper = mounts.scratch("upper")
        """The upper layer: everything the trial wrote."""
        self._work = mounts.scratch("work")
        self._mounts = mounts
        self._clean: bool | None = None
        extra = _USER_NS_OPTIONS if mounts.user_namespace else _ROOT_OPTIONS
        options = (
            f"lowerdir={_escape(lower)},upperdir={_escape(self.upper)},"
            f"workdir={_escape(self._work)}{extra}"
        )
        try:
            kernel.mount("overlay", target, "overlay", 0, options)
        except OSError:
            self._remove_layers()
            raise
        mounts.track(target)
        # tmpfs counts a directory's entries in its size (a constant per entry, whiteouts
        # included), so the size of the upper layer says whether it is empty: one stat. The
        # upper layer is also the view's root: a trial's chmod, chown or setfattr of it shows
        # there, and nowhere in the listing. Read once mounted (the mount adds an attribute).
        self._empty = _shape(self.upper)

    @property
    def opaque_xattr(self) -> str:
        """The xattr that marks a directory of the upper layer as hiding the lower one."""
        prefix = "user" if self._mounts.user_namespace else "trusted"
        return f"{prefix}.overlay.opaque"

    def clean(self) -> bool:
        """Whether the view still shows the lower tree exactly (nothing changed in the upper layer).

        Nothing in it, and its own directory (the view's root) as it was made:
        mode, owner and extended attribute names.

        The answer is kept until :meth:`in_use`: nothing writes to the view
        between one trial's end and the next one's start.
        """
        if self._clean is None:
            self._clean = _shape(self.upper) == self._empty
        return self._clean

    def in_use(self) -> None:
        """A trial is about to run in the view: what :meth:`clean` knew is void."""
        self._clean = None

    def unmount(self, keep_into: Path | None = None) -> None:
        """Unmount the view and delete its layers, copying the upper one to ``keep_into``."""
        try:
            kernel.umount(self.target)
            if keep_into is not None:
                copy_upper(self.upper, keep_into)
        finally:
            self._mounts.untrack(self.target)
            self._remove_layers()

    def _remove_layers(self) -> None:
        for layer in (self.upper, self._work):
            # The kernel leaves a mode-000 directory in the work directory.
            shutil.rmtree(layer, onerror=_writable_then_retry)


def _shape(upper: Path) -> tuple[int, int, int, int, frozenset[str]]:
    """What a trial can change of the upper layer's own directory (the view's root).

    Its entries (through its size), its mode, its owner and the names of its
    extended attributes (the kernel's own ``*.overlay.*`` one is there from the mount).
    """
    found = os.stat(upper)
    names = frozenset(os.listxattr(upper))
    return found.st_size, found.st_mode, found.st_uid, found.st_gid, names


def _writable_then_retry(function: Callable[..., object], path: str, _: object) -> None:
    try:
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
        function(path)
    except OSError:
        pass  # in the thread's tmpfs: it goes with the namespace


class TreeView:
    """The thread's view of the skill tree, mounted over the tree's own path.

    Args:
        mounts: The thread's private namespace.
        tree: The skill tree (the overlay is mounted on this very path).
    """

    def __init__(self, mounts: ThreadMounts, tree: Path) -> None:
        self._mounts = mounts
        self._tree = tree
        self._lower = mounts.lower(tree)
        self._current: Overlay | None = None
        self._generation = -1

    @property
    def lower(self) -> Path:
        """The skill tree itself, reached below the view (a bind mount made before it)."""
        return self._lower

    @property
    def mounts(self) -> ThreadMounts:
        """The thread's private namespace the view lives in."""
        return self._mounts

    def fresh(self, generation: int) -> Overlay:
        """A view equal to the lower tree: the last one if it is still clean, else a new one.

        ``generation`` counts the trials that changed the shared tree itself
        (``isolation: none``): after one, the lower tree is not what the old
        view was mounted over, so a new one is mounted.
        """
        current = self._current
        if current is not None and generation == self._generation and current.clean():
            current.in_use()
            return current
        if current is not None:
            self._current = None
            current.unmount()
        self._current = Overlay(self._mounts, self._lower, self._tree)
        self._generation = generation
        self._current.in_use()
        return self._current

    def discard(self) -> None:
        """Unmount the view (the thread is done with trials of this tree)."""
        if self._current is not None:
            current, self._current = self._current, None
            current.unmount()
