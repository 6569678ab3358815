"""Write JSON documents atomically: a reader never sees half a report."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from pydantic import BaseModel


def dump_model(model: BaseModel) -> str:
    """Return the model as indented JSON text with a final newline."""
    return model.model_dump_json(by_alias=True, indent=2) + "\n"


def dump_value(value: object) -> str:
    """Return a plain JSON value as indented JSON text with a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


class OutputError(OSError):
    """A report or document cannot be written where the user asked (invalid usage, exit 2)."""


def check_writable(path: Path) -> None:
    """Fail early, before any work, when ``path`` cannot take a written file.

    Raises:
        OutputError: ``path`` is a directory, or its directory cannot be
            created or written to.
    """
    if str(path) == "-":
        return
    if path.is_dir():
        raise OutputError(f"cannot write to {path}: it is a directory")
    if path.exists() and not path.is_file():
        # Replacing a device or a pipe with a file would break it (as root, /dev/null too).
        raise OutputError(f"cannot write to {path}: it is not a regular file")
    directory = path.parent if str(path.parent) else Path(".")
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write to {path}: {existing} is not a writable directory")


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    ``-`` writes to standard output. The temporary file lives in the target's
    directory so that the rename stays on one file system; on any failure it
    is removed and an existing file at ``path`` is left untouched. An existing
    file keeps its permission bits (a registry rewritten in place stays as
    readable as it was); a new one gets those ``open`` would give it.
    """
    if str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    check_writable(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from error
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            _keep_mode(path, handle.fileno())
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except OSError as error:
        Path(tmp_name).unlink(missing_ok=True)
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from error
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _keep_mode(path: Path, fd: int) -> None:
    """Give the temporary file the mode of the file it replaces (a new one: 0666 less umask)."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    os.fchmod(fd, mode)


def _umask() -> int:
    # Read, not set and restored: a child forked meanwhile would inherit a zero umask.
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def write_model_atomic(path: Path, model: BaseModel) -> None:
    """Write a pydantic model as JSON to ``path`` atomically."""
    write_text_atomic(path, dump_model(model))
