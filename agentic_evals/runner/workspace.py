"""Trial workspaces: a fresh copy of the case's input directory (SPEC 3.4).

Every trial of a case with a ``workspace`` runs in its own temporary copy of
``workspace.input`` (so parallel trials never share files), and the copy is
snapshotted before and after the trial to record what the trial added,
changed and removed. Symlinks are copied as symlinks and never followed, so
nothing outside the input tree is copied, read or hashed.
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


class WorkspaceUnavailableError(Exception):
    """The workspace input cannot be copied (missing, not a directory, unreadable)."""


class Entry(NamedTuple):
    """One path of a snapshot.

    ``digest`` is the sha256 of a regular file's content or of a symlink's
    target text; None for directories, other file types, and unreadable files.
    """

    kind: str
    size: int
    digest: str | None


Snapshot = dict[str, Entry]
"""Relative POSIX path to what was there."""


def create(source: Path) -> Path:
    """Copy the directory ``source`` into a new temporary workspace and return it.

    Raises:
        WorkspaceUnavailableError: ``source`` does not exist, is not a
            directory, or could not be copied; nothing is left behind.
    """
    if not source.exists():
        raise WorkspaceUnavailableError(f"workspace input {str(source)!r} does not exist")
    if not source.is_dir():
        raise WorkspaceUnavailableError(f"workspace input {str(source)!r} is not a directory")
    root = Path(os.path.realpath(tempfile.mkdtemp(prefix=PREFIX)))
    try:
        shutil.copytree(source, root, symlinks=True, dirs_exist_ok=True)
    except OSError as error:
        remove(root)
        message = f"cannot copy workspace input {str(source)!r}: {error}"
        raise WorkspaceUnavailableError(message) from error
    return root


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
    """Return every path under ``root`` with its type, size and digest; links are not followed."""
    found: Snapshot = {}
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(directory).relative_to(root).as_posix()
        for name in (*dirnames, *filenames):
            relative = name if base == "." else f"{base}/{name}"
            entry = _entry(os.path.join(directory, name))
            if entry is not None:
                found[relative] = entry
    return found


def _entry(path: str) -> Entry | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None  # vanished meanwhile
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            return Entry("symlink", 0, None)
        return Entry("symlink", 0, hashlib.sha256(os.fsencode(target)).hexdigest())
    if stat.S_ISDIR(info.st_mode):
        return Entry("dir", 0, None)
    if stat.S_ISREG(info.st_mode):
        return Entry("file", info.st_size, _file_digest(path))
    return Entry("other", 0, None)


def _file_digest(path: str) -> str | None:
    digest = hashlib.sha256()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def changes(before: Snapshot, after: Snapshot) -> WorkspaceChangesReport:
    """Return the paths added, changed and removed between two snapshots, sorted."""
    return WorkspaceChangesReport(
        added=sorted(after.keys() - before.keys()),
        changed=sorted(p for p in before.keys() & after.keys() if before[p] != after[p]),
        removed=sorted(before.keys() - after.keys()),
    )
