"""A private copy of a skill tree, to put a bug back in without touching the original.

What is copied: every directory, regular file (with its mode and times) and
symlink (as a symlink, never followed) of the skill folder. What is not:

- version-control metadata (``.git``, ``.hg``, ``.svn``) and bytecode or tool
  caches (``__pycache__``, ``.mypy_cache``, ``.ruff_cache``,
  ``.pytest_cache``, ``.hypothesis``): they never change what a guard does;
- devices, FIFOs and sockets: opening one could block or have effects; they
  are listed in ``skipped``;
- Python virtual environments (a directory holding ``pyvenv.cfg``) are
  *linked*, not copied: a venv is not relocatable (its scripts name its
  interpreter by absolute path), so a copy would run the original anyway, and
  copying one costs seconds. A broken tree's scripts must therefore not
  install into a venv; an editable install in it still imports the original
  sources unless the tree's own entry point puts its sources first.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Final, NamedTuple

from agentic_evals.runner.isolation import copy as workspace_copy

SKIPPED_DIRS: Final = frozenset(
    {".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
    | {".hypothesis"}
)
"""Names that are never copied: version-control metadata and caches."""
VENV_MARKER: Final = "pyvenv.cfg"


class Copied(NamedTuple):
    """What a copy linked instead of copying, and what it left out."""

    linked: list[str]
    """Virtual environments linked to the original (relative paths)."""
    skipped: list[str]
    """``path (kind)`` of the special files left out."""


class _Entry(NamedTuple):
    relative: str
    kind: str
    """``dir``, ``file``, ``symlink``, ``venv`` or ``other``."""


def is_venv(path: Path) -> bool:
    """``path`` is a Python virtual environment (it holds ``pyvenv.cfg``)."""
    return (path / VENV_MARKER).is_file() and not path.is_symlink()


def _walk(root: Path, relative: str = "") -> Iterator[_Entry]:
    with os.scandir(root / relative if relative else root) as found:
        entries = sorted(found, key=lambda entry: entry.name)
    for entry in entries:
        name = f"{relative}/{entry.name}" if relative else entry.name
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            yield _Entry(name, "symlink")
        elif stat.S_ISDIR(mode):
            if entry.name in SKIPPED_DIRS:
                continue
            if is_venv(Path(entry.path)):
                yield _Entry(name, "venv")
                continue
            yield _Entry(name, "dir")
            yield from _walk(root, name)
        elif stat.S_ISREG(mode):
            if entry.name not in SKIPPED_DIRS:
                yield _Entry(name, "file")
        else:
            yield _Entry(name, "other")


def copy_tree(source: Path, target: Path) -> Copied:
    """Copy the skill folder ``source`` to the new folder ``target`` (see the module docstring).

    Raises:
        OSError: something could not be read or written.
    """
    source = source.resolve()
    target.mkdir()
    copied = Copied([], [])
    directories: list[str] = []
    for entry in _walk(source):
        origin, copy = source / entry.relative, target / entry.relative
        if entry.kind == "dir":
            copy.mkdir()
            directories.append(entry.relative)
        elif entry.kind == "file":
            shutil.copy2(origin, copy, follow_symlinks=False)
        elif entry.kind == "symlink":
            os.symlink(os.readlink(origin), copy)
        elif entry.kind == "venv":
            os.symlink(origin, copy, target_is_directory=True)
            copied.linked.append(entry.relative)
        else:
            copied.skipped.append(f"{entry.relative} (special file)")
    # Directory modes and times last: a read-only directory could not be filled.
    for relative in reversed(directories):
        shutil.copystat(source / relative, target / relative, follow_symlinks=False)
    return copied


def link_venvs(source: Path, target: Path) -> list[str]:
    """Link the virtual environments of ``source`` into ``target`` where it has none.

    Used for a tree checked out from git, which holds tracked files only.
    """
    source = source.resolve()
    linked = []
    for entry in _walk(source):
        place = target / entry.relative
        if entry.kind == "venv" and place.parent.is_dir() and not os.path.lexists(place):
            os.symlink(source / entry.relative, place, target_is_directory=True)
            linked.append(entry.relative)
    return linked


def remove_tree(root: Path) -> None:
    """Delete a broken tree, read-only directories included; links are removed, not followed."""
    if root.exists() or root.is_symlink():
        workspace_copy.remove(root)
