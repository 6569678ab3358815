"""Files written in the temporary folders during a run, as the kernel reports them (inotify).

Looking for stub copies by walking ``/tmp`` before every live trial costs a
stat per entry and grows with whatever else lives there. Instead, when the run
begins, :class:`FreshFiles` puts an inotify watch on each temporary folder and
on its subfolders (one level down, as the walk went), and before each trial
reads what the kernel queued since: the names created, written, moved in or
removed there. The cost per trial follows the changes, not the folders' size.

A folder created during the run at the top level is watched too, and what it
already holds when the watch is added is read once. The runner's own entries
(``agentic-evals-*``) and mount points are never watched. When the kernel
cannot give a watch (no inotify, the watch limit reached) or its queue
overflowed, :meth:`FreshFiles.changed` says so with ``None`` and the caller
walks the folders instead.
"""

from __future__ import annotations

import errno
import os
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from agentic_evals.runner import kernel

IN_CLOSE_WRITE: Final = 0x8
IN_MOVED_TO: Final = 0x80
IN_CREATE: Final = 0x100
IN_DELETE: Final = 0x200
IN_Q_OVERFLOW: Final = 0x4000
IN_ISDIR: Final = 0x40000000
IN_ONLYDIR: Final = 0x01000000
IN_DONT_FOLLOW: Final = 0x02000000
_MASK: Final = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ONLYDIR | IN_DONT_FOLLOW
_EVENT = struct.Struct("iIII")
_BUFFER: Final = 64 * 1024
MAX_WATCHES: Final = 2_000
"""At most this many folders are watched; past it the caller walks instead."""


class FreshFiles:
    """The files created, written or removed under some folders since it was made.

    Args:
        folders: The folders to watch, each with how many levels of subfolders below it.
        skip: Entries whose name starts with it are not watched (the runner's own).
        outside: A folder nothing under is watched (the skill tree).

    Raises:
        OSError: inotify is not there; nothing is left open.
    """

    def __init__(self, folders: Iterable[tuple[Path, int]], skip: str, outside: Path) -> None:
        self._fd = kernel.inotify_init(os.O_NONBLOCK | os.O_CLOEXEC)
        self._skip = skip
        self._outside = outside
        self._dirs: dict[int, tuple[Path, int]] = {}
        """Each watch: its folder and how many levels below it are watched too."""
        self._pending: dict[Path, None] = {}
        self.complete = True
        """Every folder is watched and nothing was lost: False sends the caller walking."""
        for folder, depth in dict.fromkeys(folders):
            self._watch(folder, depth, read=False, top=True)

    def close(self) -> None:
        """Release the watches."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def changed(self) -> list[Path] | None:
        """The paths changed since the last call (or since the watches were made).

        None when some change may have been missed (see the module docstring).
        """
        self._drain()
        if not self.complete:
            return None
        found, self._pending = list(self._pending), {}
        return found

    def _watch(self, folder: Path, depth: int, *, read: bool, top: bool = False) -> None:
        """Watch ``folder`` and, ``depth`` levels down, its subfolders; ``read``: list its files.

        A folder below a watched one is passed over when it is the runner's own, in the tree,
        or a mount point (another trial's view).
        """
        if self._fd < 0 or folder.is_relative_to(self._outside):
            return
        if not top and (folder.name.startswith(self._skip) or os.path.ismount(folder)):
            return
        if len(self._dirs) >= MAX_WATCHES:
            self.complete = False
            return
        try:
            wd = kernel.inotify_add_watch(self._fd, folder, _MASK)
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                self.complete = False  # no watch left: the caller walks
            return
        self._dirs[wd] = (folder, depth)
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            return
        for entry in listed:
            if entry.name.startswith(self._skip):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir and depth > 0:
                self._watch(Path(entry.path), depth - 1, read=read)
            elif read and not is_dir:
                self._pending[Path(entry.path)] = None

    def _drain(self) -> None:
        while self._fd >= 0:
            try:
                buffer = os.read(self._fd, _BUFFER)
            except BlockingIOError:
                return
            except OSError:
                self.complete = False
                return
            offset = 0
            while offset + _EVENT.size <= len(buffer):
                wd, mask, _, length = _EVENT.unpack_from(buffer, offset)
                raw = buffer[offset + _EVENT.size : offset + _EVENT.size + length]
                offset += _EVENT.size + length
                self._event(wd, mask, raw.rstrip(b"\0"))

    def _event(self, wd: int, mask: int, raw: bytes) -> None:
        if mask & IN_Q_OVERFLOW:
            self.complete = False
            return
        watched = self._dirs.get(wd)
        if watched is None or not raw:
            return
        folder, depth = watched
        path = folder / os.fsdecode(raw)
        if path.name.startswith(self._skip):
            return
        if mask & IN_ISDIR:
            if mask & (IN_CREATE | IN_MOVED_TO) and depth > 0:
                self._watch(path, depth - 1, read=True)
            return
        self._pending[path] = None
