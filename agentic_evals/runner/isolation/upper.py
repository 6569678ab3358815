"""What a trial changed, read from its overlay's upper layer.

The upper layer holds exactly what the trial wrote, so reading it costs
time proportional to the changes, not to the tree:

- a name only in the upper layer was added (with everything below it);
- a *whiteout* (a character device 0/0) removed the lower path, and
  everything below it when it was a directory;
- an *opaque* directory (xattr ``trusted.overlay.opaque`` or, mounted from a
  user namespace, ``user.overlay.opaque``) hides the lower directory's
  content: lower names it does not hold were removed;
- a name in both layers of another type (a directory replaced by a file)
  changed, and what was below the old directory was removed;
- a file in both (copied up) changed when its size or content differs from
  the lower one, a symlink when its target does; a directory does not
  change itself (as in the copy's snapshots), its content is read.

Paths are relative POSIX paths; the result has the shape of a copy's changes.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from agentic_evals.reports.model import WorkspaceChangesReport
from agentic_evals.runner.isolation.copy import file_digest


class _Changes:
    def __init__(self, opaque_xattr: str) -> None:
        self.added: list[str] = []
        self.changed: list[str] = []
        self.removed: list[str] = []
        self.opaque_xattr = opaque_xattr


def upper_changes(upper: Path, lower: Path, opaque_xattr: str) -> WorkspaceChangesReport:
    """Return what the upper layer ``upper`` changed over ``lower``, sorted."""
    found = _Changes(opaque_xattr)
    _directory(upper, lower, "", found, opaque=False)
    return WorkspaceChangesReport(
        added=sorted(found.added), changed=sorted(found.changed), removed=sorted(found.removed)
    )


def _directory(upper: Path, lower: Path, prefix: str, found: _Changes, *, opaque: bool) -> None:
    with os.scandir(upper) as entries:
        names = {entry.name: entry.stat(follow_symlinks=False) for entry in entries}
    for name, info in names.items():
        _entry(upper / name, lower / name, f"{prefix}{name}", info, found)
    if opaque:
        for name in _names(lower):
            if name not in names:
                _removed(lower / name, f"{prefix}{name}", found)


def _entry(upper: Path, lower: Path, path: str, info: os.stat_result, found: _Changes) -> None:
    below = _lstat(lower)
    if _whiteout(info):
        if below is not None:
            _removed(lower, path, found)
        return
    if below is None:
        found.added.append(path)
        _all_below(upper, path, found.added)
        return
    if stat.S_IFMT(info.st_mode) != stat.S_IFMT(below.st_mode):
        found.changed.append(path)
        if stat.S_ISDIR(below.st_mode):
            _all_below(lower, path, found.removed)
        if stat.S_ISDIR(info.st_mode):
            _all_below(upper, path, found.added)
        return
    if stat.S_ISDIR(info.st_mode):
        _directory(upper, lower, f"{path}/", found, opaque=_opaque(upper, found.opaque_xattr))
    elif _content_differs(upper, lower, info, below):
        found.changed.append(path)


def _content_differs(upper: Path, lower: Path, info: os.stat_result, below: os.stat_result) -> bool:
    if stat.S_ISLNK(info.st_mode):
        return os.readlink(upper) != os.readlink(lower)
    if stat.S_ISREG(info.st_mode):
        return info.st_size != below.st_size or file_digest(upper) != file_digest(lower)
    return info.st_rdev != below.st_rdev  # devices, FIFOs, sockets: never read


def _removed(lower: Path, path: str, found: _Changes) -> None:
    found.removed.append(path)
    _all_below(lower, path, found.removed)


def _all_below(root: Path, path: str, into: list[str]) -> None:
    """Every path below directory ``root`` (nothing when it is not one), as ``path/...``."""
    if not root.is_dir() or root.is_symlink():
        return
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(directory).relative_to(root).as_posix()
        prefix = path if base == "." else f"{path}/{base}"
        into.extend(f"{prefix}/{name}" for name in (*dirnames, *filenames))


def _whiteout(info: os.stat_result) -> bool:
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == 0


def _opaque(directory: Path, xattr: str) -> bool:
    try:
        return os.getxattr(directory, xattr, follow_symlinks=False) == b"y"
    except OSError:
        return False


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _names(directory: Path) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def copy_upper(upper: Path, target: Path) -> None:
    """Copy an upper layer into ``target`` for inspection (``--keep-workspaces``).

    Files, directories and symlinks are copied as they are; a whiteout is
    copied as a whiteout (a 0/0 character device) where this process may
    create one, else as an empty file named ``.wh.<name>``.
    """
    target.mkdir(exist_ok=True)
    with os.scandir(upper) as entries:
        for entry in entries:
            info = entry.stat(follow_symlinks=False)
            destination = target / entry.name
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(entry.path), destination)
            elif stat.S_ISDIR(info.st_mode):
                copy_upper(Path(entry.path), destination)
            elif stat.S_ISREG(info.st_mode):
                shutil.copy2(entry.path, destination, follow_symlinks=False)
            elif _whiteout(info):
                try:
                    os.mknod(destination, stat.S_IFCHR | 0o600, 0)
                except OSError:
                    (target / f".wh.{entry.name}").touch()
