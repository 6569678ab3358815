"""Copy workspaces: a fresh copy of the case's input directory per trial (SPEC 3.4).

Used when overlays are unavailable (or the author asks for ``isolation:
copy``). Only regular files, directories and symlinks are copied; symlinks
are copied as symlinks and never followed, so nothing outside the input is
read. Devices, FIFOs and sockets are never opened: they are recorded in the
trial's report and left out of the copy. A copy that fails is removed
before the error is raised, so nothing is left behind.

What changed is found from two stat walks of the copy: a file whose size,
mtime, ctime and inode are unchanged is unchanged; one whose size changed
has changed; only the others are hashed (the copy against its source, which
is the content the trial started from).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from agentic_evals.reports.model import WorkspaceChangesReport

PREFIX = "agentic-evals-ws-"
"""Prefix of every workspace directory, under the system temporary directory."""

_CHUNK = 1 << 20
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class WorkspaceUnavailableError(Exception):
    """The workspace input cannot be copied (missing, not a directory, unreadable)."""


class Entry(NamedTuple):
    """One path of a snapshot: what ``lstat`` said about it."""

    kind: str
    """``file``, ``dir``, ``symlink`` or ``other``."""
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int


Snapshot = dict[str, Entry]
"""Relative POSIX path to what was there."""


class Copied(NamedTuple):
    """A workspace copy and the entries that were not copied."""

    root: Path
    skipped: list[str]
    """``path (kind)`` of every device, FIFO or socket left out of the copy."""


def create(source: Path) -> Copied:
    """Copy the directory ``source`` into a new temporary workspace.

    Raises:
        WorkspaceUnavailableError: ``source`` does not exist, is not a
            directory, or could not be copied; nothing is left behind.
    """
    if not source.exists():
        raise WorkspaceUnavailableError(f"workspace input {str(source)!r} does not exist")
    if not source.is_dir():
        raise WorkspaceUnavailableError(f"workspace input {str(source)!r} is not a directory")
    root = Path(os.path.realpath(tempfile.mkdtemp(prefix=PREFIX)))
    skipped: list[str] = []
    try:
        _copy_tree(source, root, "", skipped)
    except OSError as error:
        remove(root)
        message = f"cannot copy workspace input {str(source)!r}: {error}"
        raise WorkspaceUnavailableError(message) from error
    return Copied(root, skipped)


def _copy_tree(source: Path, target: Path, relative: str, skipped: list[str]) -> None:
    with os.scandir(source) as entries:
        listed = sorted(entries, key=lambda entry: entry.name)
    for entry in listed:
        path = f"{relative}{entry.name}"
        info = entry.stat(follow_symlinks=False)
        destination = target / entry.name
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(entry.path), destination)
        elif stat.S_ISDIR(info.st_mode):
            destination.mkdir()
            _copy_tree(Path(entry.path), destination, f"{path}/", skipped)
            shutil.copystat(entry.path, destination, follow_symlinks=False)
        elif stat.S_ISREG(info.st_mode) and _copy_file(entry.path, destination):
            shutil.copystat(entry.path, destination, follow_symlinks=False)
        else:
            skipped.append(f"{path} ({_special_kind(info.st_mode)})")


def _copy_file(source: str, destination: Path) -> bool:
    """Copy one regular file; False when it turned out not to be one (it was swapped)."""
    fd = os.open(source, _READ_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        out = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            while os.sendfile(out, fd, None, _CHUNK):
                pass
        finally:
            os.close(out)
    finally:
        os.close(fd)
    return True


def _special_kind(mode: int) -> str:
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def remove(root: Path) -> None:
    """Delete a workspace, including read-only directories the trial left."""
    shutil.rmtree(root, onerror=_make_writable_and_retry)


def _make_writable_and_retry(function: Callable[..., object], path: str, _: object) -> None:
    try:
        parent = os.path.dirname(path)
        os.chmod(parent, os.stat(parent).st_mode | stat.S_IRWXU)
        function(path)
    except OSError:
        pass  # best effort: a leftover in the temporary directory is harmless


def snapshot(root: Path) -> Snapshot:
    """Return every path under ``root`` with what ``lstat`` says; links are not followed."""
    found: Snapshot = {}
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(directory).relative_to(root).as_posix()
        for name in (*dirnames, *filenames):
            relative = name if base == "." else f"{base}/{name}"
            try:
                info = os.lstat(os.path.join(directory, name))
            except OSError:
                continue  # vanished meanwhile
            found[relative] = Entry(
                _kind(info.st_mode), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino
            )
    return found


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def changes(before: Snapshot, after: Snapshot, copy: Path, source: Path) -> WorkspaceChangesReport:
    """Return the paths added, changed and removed between two snapshots of ``copy``, sorted.

    ``source`` holds the content the copy started from: a file whose stat
    changed but whose size did not is compared with it by content.
    """
    changed = [
        path
        for path in before.keys() & after.keys()
        if _differs(path, before[path], after[path], copy, source)
    ]
    return WorkspaceChangesReport(
        added=sorted(after.keys() - before.keys()),
        changed=sorted(changed),
        removed=sorted(before.keys() - after.keys()),
    )


def _differs(path: str, old: Entry, new: Entry, copy: Path, source: Path) -> bool:
    if old.kind != new.kind:
        return True
    if old.kind == "symlink":
        return _link(copy / path) != _link(source / path)
    if old.kind != "file" or old == new:
        return False
    return old.size != new.size or file_digest(copy / path) != file_digest(source / path)


def _link(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def file_digest(path: Path) -> str | None:
    """The sha256 of a regular file's content; None when it is not one or cannot be read."""
    digest = hashlib.sha256()
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
