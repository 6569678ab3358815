"""Write JSON documents atomically: a reader never sees half a report."""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import IO, Final

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from agentic_evals.documents.bounded import file_kind


def printable(text: str) -> str:
    r"""``text`` as it can be written in UTF-8: the one place report text is made safe.

    A lone surrogate (a non-UTF-8 byte of a file name the trial created or was
    given, a ``"\\ud800"`` in JSON a check read) becomes its visible escape
    (``\\udcff``); every other character is kept.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _printable_value(value: object) -> object:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable(str(k)): _printable_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_printable_value(item) for item in value]
    return value


def plain_text(model: BaseModel) -> str:
    """The model as compact JSON text of the value its written file holds (surrogates escaped)."""
    try:
        # Serialised in compiled code: a tenth of walking the dumped value.
        return model.model_dump_json(by_alias=True)
    except PydanticSerializationError:
        # A string JSON cannot hold in UTF-8: escaped on the way (rare, so not paid for first).
        value = _printable_value(model.model_dump(mode="json", by_alias=True))
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def plain_document(model: BaseModel) -> object:
    """The model as the JSON value its written file holds (lone surrogates escaped)."""
    return json.loads(plain_text(model))


def dump_model(model: BaseModel) -> str:
    """Return the model as indented JSON text with a final newline (lone surrogates escaped)."""
    try:
        return model.model_dump_json(by_alias=True, indent=2) + "\n"
    except PydanticSerializationError:
        # A string JSON cannot hold in UTF-8: escaped, then written (rare, so not paid for first).
        return dump_value(plain_document(model))


def dump_value(value: object) -> str:
    """Return a plain JSON value as indented JSON text with a final newline.

    A string with a lone surrogate is written as its escaped text (:func:`printable`).
    """
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    if printable(text) is text:
        return text
    return json.dumps(_printable_value(value), indent=2, ensure_ascii=False) + "\n"


class OutputError(OSError):
    """A report or document cannot be written where the user asked (invalid usage, exit 2)."""


_STREAMS: Final = {
    "-": "stdout",
    "/dev/stdout": "stdout",
    "/dev/fd/1": "stdout",
    "/proc/self/fd/1": "stdout",
    "/dev/stderr": "stderr",
    "/dev/fd/2": "stderr",
    "/proc/self/fd/2": "stderr",
}


_NAMES: Final = {"stdout": "standard output", "stderr": "standard error"}


def stream_of(path: Path | str) -> IO[str] | None:
    """The standard stream an output names (``-``, ``/dev/stdout``, ``/dev/stderr``...), if any.

    Raises:
        OutputError: it names a stream that is closed (the process started with ``>&-``).
    """
    name = _STREAMS.get(str(path))
    if name is None:
        return None
    stream: IO[str] | None = getattr(sys, name)
    if stream is None:
        raise OutputError(f"cannot write to {path}: {_NAMES[name]} is closed")
    return stream


def write_stream(stream: IO[str] | None, text: str) -> None:
    """Write ``text`` to a standard stream and flush it.

    Raises:
        OutputError: the stream is closed, full or a broken pipe.
    """
    name = _NAMES["stderr" if stream is sys.stderr else "stdout"]
    if stream is None:
        raise OutputError(f"cannot write to {name}: it is closed")
    try:
        stream.write(printable(text))
        stream.flush()
    except (OSError, ValueError) as error:
        # ValueError: the stream was closed (``>&-``).
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise OutputError(f"cannot write to {name}: {reason}") from None


def target_of(path: Path) -> Path:
    """The file an output replaces: a symbolic link's target, so that the link stays."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_writable(path: Path) -> None:
    """Fail early, before any work, when ``path`` cannot take a written file.

    Only a regular file is replaced (or a new one created): replacing a device,
    a FIFO or a socket with a file would break it (as root, ``/dev/null`` too).

    Raises:
        OutputError: ``path`` is a directory or another file that is not a
            regular one, or its directory cannot be created or written to.
    """
    if stream_of(path) is not None:
        return
    path = target_of(path)
    try:
        kind = file_kind(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        kind = None  # to be created: its folder is checked below
    except OSError as error:
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from None
    if kind is not None:
        raise OutputError(f"cannot write to {path}: it is {kind}, not a regular file")
    directory = path.parent if str(path.parent) else Path(".")
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write to {path}: {existing} is not a writable directory")


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    The temporary file lives in the target's directory, and both names are
    resolved from one open descriptor of that directory, so that the rename
    stays on one mount whatever the process's root and working directory are;
    on any failure it is removed and an existing file at ``path`` is left
    untouched. ``-`` and ``/dev/stdout`` write to standard output,
    ``/dev/stderr`` to standard error; a symbolic link is kept and the file it
    points to replaced. An existing file keeps its permission bits (a registry
    rewritten in place stays as readable as it was); a new one gets those
    ``open`` would give it.
    """
    stream = stream_of(path)
    if stream is not None:
        write_stream(stream, text)
        return
    check_writable(path)
    path = target_of(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from error
    try:
        _write_in(dir_fd, path, text)
    finally:
        os.close(dir_fd)


def _write_in(dir_fd: int, path: Path, text: str) -> None:
    """Write ``text`` to ``path.name`` in the directory ``dir_fd`` through a temporary file."""
    try:
        fd, tmp_name = _temporary(dir_fd, path.name)
    except OSError as error:
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from error
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            _keep_mode(dir_fd, path.name, handle.fileno())
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError as error:
        _unlink_quietly(dir_fd, tmp_name)
        raise OutputError(f"cannot write to {path}: {error.strerror or error}") from error
    except BaseException:
        _unlink_quietly(dir_fd, tmp_name)
        raise


def _temporary(dir_fd: int, name: str) -> tuple[int, str]:
    """A new file ``.name.XXXXXXXX.tmp`` in ``dir_fd``, created exclusively, mode 0600."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW
    for _ in range(100):
        candidate = f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(candidate, flags, 0o600, dir_fd=dir_fd), candidate
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", name)


def _unlink_quietly(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass


def _keep_mode(dir_fd: int, name: str, fd: int) -> None:
    """Give the temporary file the mode of the file it replaces (a new one: 0666 less umask)."""
    try:
        mode = stat.S_IMODE(os.stat(name, dir_fd=dir_fd).st_mode)
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
