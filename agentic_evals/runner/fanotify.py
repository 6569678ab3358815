"""The fanotify file tracer: what a trial ran, opened and wrote inside its skill tree.

A trial isolated by an overlay sees the skill tree through a mount of its
own (:mod:`agentic_evals.runner.isolation.overlay`). One fanotify group per
trial marks that mount (``FAN_MARK_MOUNT``) for the permission events
``FAN_OPEN_EXEC_PERM`` (a file of the tree executed) and ``FAN_OPEN_PERM``
(a file of the tree opened), and for ``FAN_MODIFY`` (written). Opens
elsewhere (``/bin/true``, libraries, ``/tmp``) are on other mounts and cost
nothing. Files outside the tree that the trial must be seen running (a
``must_exercise`` program on ``PATH``) get inode marks of their own, which
cost nothing for other files either.

While the opener is blocked on a permission event, a reader thread reads its
``/proc/PID`` (command line, parent chain) before allowing the open, so a
process that lives a millisecond is identified all the same. Reading takes
no lock the opener holds. Closing the group allows every pending event, so a
reader that fails can never leave a trial hanging. A group is kept per worker
thread and its marks removed after each trial (closing one costs a kernel grace
period); the groups are closed when the runner exits. The reader thread is
started from the trial's thread and so lives in its mount namespace: the
paths it reads back are the paths the trial saw.

Needs ``CAP_SYS_ADMIN`` (root, in the initial user namespace): elsewhere
:func:`fanotify_problem` says why, and the runner falls back to strace
(see docs/tracing.md).
"""

from __future__ import annotations

import atexit
import ctypes
import errno
import functools
import os
import select
import struct
import sys
import threading
from pathlib import Path
from typing import Any

from agentic_evals.runner.trace_record import TraceRecorder

FAN_CLOEXEC = 0x1
FAN_NONBLOCK = 0x2
FAN_CLASS_CONTENT = 0x4
FAN_UNLIMITED_QUEUE = 0x10
FAN_MODIFY = 0x2
FAN_OPEN_PERM = 0x10000
FAN_OPEN_EXEC_PERM = 0x40000
FAN_MARK_ADD = 0x1
FAN_MARK_MOUNT = 0x10
FAN_MARK_FLUSH = 0x80
FAN_ALLOW = 0x1
_AT_FDCWD = -100
_PERMISSIONS = FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM
_METADATA = struct.Struct("IBBHQii")
_RESPONSE = struct.Struct("iI")
_BUFFER = 64 * 1024
_GROUPS: dict[int, int] = {}
"""Each worker thread's fanotify group, by thread: made once, its marks changed per trial.

Closing a group waits for the kernel to free its marks (a grace period, about 9 ms per
trial measured here), so a group is not closed after each trial but kept for the thread's
next one, with no mark left between trials; all are closed when the runner exits."""
_GROUPS_LOCK = threading.Lock()


def _group() -> int:
    """The calling thread's group, made on first use."""
    key = threading.get_ident()
    with _GROUPS_LOCK:
        fd = _GROUPS.get(key)
        if fd is None:
            fd = _GROUPS[key] = _init()
        return fd


def _flush(fd: int) -> None:
    """Remove every mark of the group: no event reaches it until it is marked again."""
    for flags in (FAN_MARK_FLUSH | FAN_MARK_MOUNT, FAN_MARK_FLUSH):
        _libc().fanotify_mark(fd, flags, 0, _AT_FDCWD, None)


def _discard(fd: int) -> None:
    """Close ``fd``, a group that can no longer be trusted to answer, and forget it."""
    with _GROUPS_LOCK:
        for key, value in list(_GROUPS.items()):
            if value == fd:
                del _GROUPS[key]
    os.close(fd)


@atexit.register
def _close_groups() -> None:
    with _GROUPS_LOCK:
        for fd in _GROUPS.values():
            os.close(fd)
        _GROUPS.clear()


@functools.cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        raise OSError(errno.ENOSYS, "fanotify needs Linux")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.fanotify_init.argtypes = [ctypes.c_uint, ctypes.c_uint]
    libc.fanotify_mark.argtypes = [
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.c_uint64,
        ctypes.c_int,
        ctypes.c_char_p,
    ]
    return libc


def _init() -> int:
    flags = FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK | FAN_UNLIMITED_QUEUE
    fd = int(_libc().fanotify_init(flags, os.O_RDONLY | os.O_LARGEFILE | os.O_CLOEXEC))
    if fd < 0:
        number = ctypes.get_errno()
        raise OSError(number, f"fanotify_init: {os.strerror(number)}")
    return fd


def _mark(fd: int, flags: int, mask: int, path: Path) -> None:
    result = _libc().fanotify_mark(fd, FAN_MARK_ADD | flags, mask, _AT_FDCWD, os.fsencode(path))
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"fanotify_mark {str(path)!r}: {os.strerror(number)}")


@functools.cache
def fanotify_problem() -> str | None:
    """Why a fanotify group with permission events cannot be made here, or None."""
    try:
        os.close(_init())
    except OSError as error:
        return str(error)
    return None


class FanotifyTrace:
    """One trial's marks on its thread's group: :meth:`start` in its thread, then :meth:`stop`."""

    name = "fanotify"

    def __init__(
        self, mounts: tuple[Path, ...], files: tuple[Path, ...], recorder: TraceRecorder
    ) -> None:
        self.mounts = mounts
        """Paths on the trial's own mounts: its view of the skill tree (and of a workspace)."""
        self.files = files
        """Files outside the tree marked one by one."""
        self.recorder = recorder
        self._fd = -1
        self._reader: threading.Thread | None = None
        self._wake = (-1, -1)
        self._broken = False

    def start(self) -> None:
        """Make the group and its marks, and start the reader.

        Raises:
            OSError: The kernel refused; nothing is left open.
        """
        fd = _group()
        try:
            for path in self.mounts:
                _mark(fd, FAN_MARK_MOUNT, _PERMISSIONS | FAN_MODIFY, path)
            for path in self.files:
                _mark(fd, 0, _PERMISSIONS, path)
        except OSError:
            _flush(fd)
            raise
        self._fd = fd
        self._wake = os.pipe2(os.O_CLOEXEC)
        self._reader = threading.Thread(target=self._read, name="ae-fanotify", daemon=True)
        self._reader.start()

    def stop(self) -> None:
        """Remove the marks and read what is still queued.

        A reader that failed or is stuck may leave an open waiting for an answer: then the
        group is closed, which allows it, and the thread gets a new group next time.
        """
        if self._fd < 0:
            return
        # No event reaches the group once its marks are gone; what is queued is drained below.
        _flush(self._fd)
        os.write(self._wake[1], b"x")
        if self._reader is not None:
            self._reader.join(timeout=5.0)
            if self._reader.is_alive() or self._broken:
                _discard(self._fd)
        for end in self._wake:
            os.close(end)
        self._fd = -1

    def _read(self) -> None:
        own = os.getpid()
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        poller.register(self._wake[0], select.POLLIN)
        while True:
            ready = {fd for fd, _ in poller.poll()}
            if not self._drain(own) or self._wake[0] in ready:
                # The trial's processes are gone: what is queued now is all there is.
                self._broken = not self._drain(own)
                return

    def _drain(self, own: int) -> bool:
        """Handle every queued event; False when the group cannot be read."""
        while True:
            try:
                buffer = os.read(self._fd, _BUFFER)
            except BlockingIOError:
                return True
            except OSError as error:
                self.recorder.failed(f"reading the fanotify group: {error}")
                return False
            offset = 0
            while offset + _METADATA.size <= len(buffer):
                length, _, _, _, mask, efd, pid = _METADATA.unpack_from(buffer, offset)
                offset += max(length, _METADATA.size)
                if efd >= 0:
                    self._handle(mask, efd, pid, own)

    def _handle(self, mask: int, efd: int, pid: int, own: int) -> None:
        try:
            if pid != own:  # the runner itself (reading artifacts) is no part of the trial
                self.recorder.event(mask, efd, pid)
        except Exception as error:  # never leave an opener blocked
            self.recorder.failed(f"{type(error).__name__}: {error}")
        finally:
            if mask & _PERMISSIONS:
                os.write(self._fd, _RESPONSE.pack(efd, FAN_ALLOW))
            os.close(efd)
