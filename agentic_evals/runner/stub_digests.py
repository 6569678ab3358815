"""The content of a skill tree's stubs, and the files outside it that may be copies of them.

A stub copied out of the skill tree (``cp fixtures/stub.csv /tmp/x``) is no
longer under a stub location, so its path says nothing: its content does. The
digests here (sha256 and size of every regular file under the tree's stub
locations, :func:`stub_digests`) are read once per run and compared with the
content of the files a live trial may read (:func:`copies_among`). Every walk
is bounded, and a file is hashed only when its size equals a stub's.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final, NamedTuple

from agentic_evals.contract.layout import stub_part

MAX_STUB_FILES: Final = 10_000
"""At most this many stub files are digested."""
MAX_STUB_BYTES: Final = 64 * 1024 * 1024
"""A stub file larger than this is not digested (nor a candidate copy that large)."""
MAX_TREE_ENTRIES: Final = 100_000
"""At most this many entries of the skill tree are looked at to find its stub locations."""
MAX_FOLDER_ENTRIES: Final = 4_000
"""At most this many entries of one folder (a temporary one with its subfolders, or one a
case names) are looked at."""
_SKIPPED_DIRS: Final = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__"})
_CHUNK = 1024 * 1024


class StubDigests(NamedTuple):
    """The digests of a tree's stub files."""

    by_digest: dict[tuple[int, str], str]
    """``(size, sha256)`` to the first stub file with that content (relative to the tree)."""
    sizes: frozenset[int]
    """The sizes of the stub files: a file of another size is no copy and is not hashed."""


def stub_digests(tree: Path) -> StubDigests:
    """The digests of the regular, non-empty stub files under ``tree`` (bounded)."""
    found: dict[tuple[int, str], str] = {}
    for relative, info in _stub_files(tree):
        digest = file_digest(tree / relative, info.st_size)
        if digest is not None:
            found.setdefault((info.st_size, digest), relative)
    return StubDigests(found, frozenset(size for size, _ in found))


def _stub_files(tree: Path) -> Iterator[tuple[str, os.stat_result]]:
    """The regular files under the stub locations of ``tree``, by path relative to it."""
    seen = files = 0
    pending: list[tuple[Path, str, bool]] = [(tree, "", False)]
    while pending and seen < MAX_TREE_ENTRIES and files < MAX_STUB_FILES:
        folder, relative, in_stub = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            name = f"{relative}{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED_DIRS:
                        pending.append(
                            (Path(entry.path), f"{name}/", in_stub or stub_part(entry.name))
                        )
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if in_stub and stat.S_ISREG(info.st_mode) and 0 < info.st_size <= MAX_STUB_BYTES:
                files += 1
                yield name, info
                if files >= MAX_STUB_FILES:
                    return


def file_digest(path: Path, size: int) -> str | None:
    """The sha256 of the regular file ``path`` when it still has ``size`` bytes, else None."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb", buffering=0) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            read = 0
            while chunk := handle.read(_CHUNK):
                read += len(chunk)
                if read > size:
                    return None
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest() if read == size else None


def copies_among(paths: Iterable[Path], digests: StubDigests) -> dict[str, str]:
    """Of ``paths`` (resolved), the regular files whose content is a stub's, each to that stub.

    Stat first; only a file whose size is a stub's is hashed. Empty files are never copies.
    """
    found: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            info = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size not in digests.sizes:
            continue
        digest = file_digest(path, info.st_size)
        stub = None if digest is None else digests.by_digest.get((info.st_size, digest))
        if stub is not None:
            found[str(path)] = stub
    return found


def folder_files(
    folder: Path, depth: int = 0, since: float | None = None, skip: str | None = None
) -> list[Path]:
    """The regular files directly in ``folder`` (and ``depth`` levels down), bounded.

    With ``since`` (a time in seconds), only the files changed (``mtime`` or
    ``ctime``) then or later: a copy made during the run, ``cp -p`` included.
    Entries named with the prefix ``skip`` are passed over, and a subfolder
    that is a mount point (another trial's view) is not entered.
    """
    found: list[Path] = []
    pending = [(folder, depth)]
    budget = MAX_FOLDER_ENTRIES
    while pending and budget > 0:
        current, left = pending.pop(0)
        try:
            with os.scandir(current) as scan:
                entries = [entry for _, entry in zip(range(budget), scan, strict=False)]
        except OSError:
            continue
        budget -= len(entries)
        for entry in entries:
            if skip is not None and entry.name.startswith(skip):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if left > 0 and not os.path.ismount(entry.path):
                        pending.append((Path(entry.path), left - 1))
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            fresh = since is None or max(info.st_mtime, info.st_ctime) >= since
            if stat.S_ISREG(info.st_mode) and fresh:
                found.append(Path(entry.path))
    return found
