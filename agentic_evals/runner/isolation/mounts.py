"""A private mount namespace per trial thread, with a staging area in memory.

A thread that runs isolated trials calls :meth:`ThreadMounts.enter` once: it
leaves the runner's mount namespace for a copy of its own
(``unshare(CLONE_NEWNS)`` applies to the calling thread), where every mount
is made a slave so that nothing mounted here reaches the host, and mounts a
tmpfs on a fresh staging directory. Upper layers and work directories live
in that tmpfs, and the skill tree is bind-mounted there once, as it was
before any trial, to serve as the lower layer. Processes the thread spawns
inherit the namespace and see the trial's overlays; nobody else does.

When the thread ends, or the runner dies (even by SIGKILL), the namespace
goes and everything mounted in it with it; only the empty staging directory
is left on the host, which :func:`remove_staging` or the next run removes.
"""

from __future__ import annotations

import errno
import itertools
import os
import tempfile
import threading
import time
from pathlib import Path

from agentic_evals import clock
from agentic_evals.runner import kernel

STAGING_PREFIX = "agentic-evals-view-"
"""Prefix of the staging directories, under the system temporary directory."""


class ThreadMounts:
    """The calling thread's private mount namespace and its staging tmpfs."""

    def __init__(
        self, staging: Path, host: int | None, user_namespace: bool, cwd: int | None = None
    ) -> None:
        self.staging = staging
        """The tmpfs holding upper layers, work directories and lower binds."""
        self.user_namespace = user_namespace
        """The runner lives in a user namespace of its own (mounted without root)."""
        self.namespace = kernel.namespace_of(threading.get_native_id())
        """The namespace's id (``mnt:[inode]``): processes in it are this thread's trials'."""
        self.thread = threading.get_ident()
        self._host = host
        self._cwd = cwd
        self._lowers: dict[Path, Path] = {}
        self._names = itertools.count()
        self._mounted: list[Path] = []

    @classmethod
    def enter(cls, tag: str, *, user_namespace: bool, restore: bool) -> ThreadMounts:
        """Move the calling thread into a private mount namespace with a staging tmpfs.

        Args:
            tag: Part of the staging directory's name (the run id).
            user_namespace: The runner entered its own user namespace.
            restore: Keep a way back to the current namespace (see :meth:`release`).

        Raises:
            OSError: The kernel refused; the thread is where it was and nothing is left.
        """
        staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{tag}-"))
        host = kernel.open_namespace("mnt") if restore else None
        # Going back (setns) moves the thread to the namespace's root: its cwd is restored.
        cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC) if restore else None
        try:
            kernel.unshare(kernel.CLONE_NEWNS)
        except OSError:
            _close(host)
            _close(cwd)
            os.rmdir(staging)
            raise
        mounts = cls(staging, host, user_namespace, cwd)
        try:
            kernel.mount(None, "/", None, kernel.MS_REC | kernel.MS_SLAVE)
            flags = kernel.MS_NOSUID | kernel.MS_NODEV
            kernel.mount("tmpfs", staging, "tmpfs", flags, "mode=0700")
        except OSError:
            mounts.release()
            raise
        return mounts

    def lower(self, tree: Path) -> Path:
        """A read-only bind mount of ``tree``, made once, to use as a lower layer.

        Read-only, because the trial's processes see the staging area too: a
        trial that cleans the temporary directory must not reach the real tree
        through it.
        """
        found = self._lowers.get(tree)
        if found is None:
            found = self.scratch("lower")
            kernel.mount(tree, found, None, kernel.MS_BIND | kernel.MS_REC)
            self._mounted.append(found)
            flags = kernel.MS_BIND | kernel.MS_REMOUNT | kernel.MS_RDONLY
            kernel.mount(None, found, None, flags)
            self._lowers[tree] = found
        return found

    def scratch(self, kind: str) -> Path:
        """A new empty directory in the staging tmpfs."""
        path = self.staging / f"{kind}-{next(self._names)}"
        path.mkdir()
        return path

    def track(self, target: Path) -> None:
        """Remember a mount made on ``target`` so that :meth:`release` unmounts it."""
        self._mounted.append(target)

    def untrack(self, target: Path) -> None:
        """Forget a mount that was unmounted."""
        if target in self._mounted:
            self._mounted.remove(target)

    def release(self) -> None:
        """Unmount everything, remove the staging directory, and go back if possible.

        Called by the thread that entered (the main thread, at the end of a
        serial run); worker threads need not call it: their namespace ends with them.
        """
        for target in reversed(self._mounted):
            _quietly_unmount(target)
        self._mounted.clear()
        self._lowers.clear()
        _quietly_unmount(self.staging)
        returned = self._host is not None and _go_back(self._host)
        _close(self._host)
        self._host = None
        if self._cwd is not None:
            if returned:
                os.fchdir(self._cwd)
            # Not returned: the working directory stays beside the root, in the
            # private namespace; the saved one is on the host's mounts, and a
            # relative and an absolute name of one directory would then be on
            # two mounts (a rename between them fails with EXDEV).
            _close(self._cwd)
            self._cwd = None
        remove_staging(self.staging)


SETNS_PATIENCE = 0.1
"""Seconds :func:`_go_back` waits for threads that share the fs state to finish exiting."""


def _go_back(host: int) -> bool:
    """Move the calling thread back into the namespace ``host``; whether it went.

    ``setns`` refuses (EINVAL) while another thread shares the caller's fs
    state: one it started after entering, even one already joined, holds it
    until the kernel has finished its exit, a moment later. A thread still
    running keeps refusing: the caller then stays in the (empty) private namespace.
    """
    deadline = clock.monotonic() + SETNS_PATIENCE
    while True:
        try:
            kernel.setns(host, kernel.CLONE_NEWNS)
        except OSError as error:
            if error.errno != errno.EINVAL or clock.monotonic() >= deadline:
                return False
            time.sleep(0.002)
        else:
            return True


def _quietly_unmount(target: Path) -> None:
    try:
        kernel.umount(target)
    except OSError:
        pass  # already gone with its parent mount


def _close(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def remove_staging(path: Path) -> None:
    """Remove an empty staging directory (a mount on it in another namespace goes too)."""
    try:
        os.rmdir(path)
    except OSError:
        pass  # still mounted here, or not empty: left for the next run to report
