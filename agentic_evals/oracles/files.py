"""Reading artifact files that ``paths`` has already placed inside the boundary.

Files are opened with ``O_NOFOLLOW`` (a final component swapped for a symlink
after resolution is refused, not followed) and ``O_NONBLOCK`` (a FIFO left
behind cannot hang the runner), and only regular files are read. Hashes are
computed in chunks so a huge artifact never sits in memory; content that
must be parsed or searched as text is read whole, up to ``MAX_CONTENT_BYTES``.
Every result is cached per real path, so several checks on one file read it
once.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

MAX_CONTENT_BYTES = 64 * 1024 * 1024
"""Largest artifact read whole for JSON parsing or text search."""

_CHUNK = 1024 * 1024
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)

Kind = Literal["missing", "file", "directory", "other"]


class ArtifactReadError(Exception):
    """The artifact could not be read (permissions, not a regular file, I/O)."""


class ArtifactTooLargeError(ArtifactReadError):
    """The artifact is larger than ``MAX_CONTENT_BYTES``."""


class ArtifactNotJsonError(Exception):
    """The artifact is not a valid JSON document."""


@dataclass(frozen=True)
class Entry:
    """What is at a resolved path.

    Attributes:
        kind: ``missing``, ``file`` (regular), ``directory`` or ``other``.
        size: Size in bytes (0 unless a regular file).
    """

    kind: Kind
    size: int = 0


@dataclass
class ArtifactReader:
    """Reads resolved artifact paths once and remembers what it read."""

    _entries: dict[Path, Entry] = field(default_factory=dict)
    _digests: dict[Path, str | ArtifactReadError] = field(default_factory=dict)
    _contents: dict[Path, bytes | ArtifactReadError] = field(default_factory=dict)
    _documents: dict[Path, tuple[Any, Exception | None]] = field(default_factory=dict)

    def entry(self, real: Path) -> Entry:
        """Return what is at ``real`` (without following a final symlink)."""
        if real not in self._entries:
            self._entries[real] = _probe(real)
        return self._entries[real]

    def digest(self, real: Path) -> str:
        """Return ``sha256:<hex>`` of the regular file at ``real``, hashed in chunks.

        Raises:
            ArtifactReadError: The file cannot be opened or read.
        """
        if real not in self._digests:
            try:
                self._digests[real] = _hash(real)
            except ArtifactReadError as error:
                self._digests[real] = error
        cached = self._digests[real]
        if isinstance(cached, ArtifactReadError):
            raise cached
        return cached

    def content(self, real: Path) -> bytes:
        """Return the bytes of the regular file at ``real``.

        Raises:
            ArtifactTooLargeError: The file exceeds ``MAX_CONTENT_BYTES``.
            ArtifactReadError: The file cannot be opened or read.
        """
        if real not in self._contents:
            try:
                self._contents[real] = _read_capped(real)
            except ArtifactReadError as error:
                self._contents[real] = error
        cached_bytes = self._contents[real]
        if isinstance(cached_bytes, ArtifactReadError):
            raise cached_bytes
        return cached_bytes

    def document(self, real: Path) -> Any:
        """Return the file at ``real`` parsed as strict JSON (no NaN or Infinity).

        Raises:
            ArtifactReadError: The file cannot be read (or is too large).
            ArtifactNotJsonError: The content is not valid JSON.
        """
        if real not in self._documents:
            data = self.content(real)
            try:
                self._documents[real] = (json.loads(data, parse_constant=_reject_constant), None)
            except (ValueError, RecursionError) as error:
                self._documents[real] = (None, ArtifactNotJsonError(str(error)))
        value, failure = self._documents[real]
        if failure is not None:
            raise failure
        return value


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are Python extensions, not JSON.
    raise ValueError(f"{name} is not valid JSON")


def _probe(real: Path) -> Entry:
    try:
        info = os.lstat(real)
    except FileNotFoundError:
        return Entry("missing")
    except OSError:
        # A path we cannot even stat (permissions, loops) exists but is unusable.
        return Entry("other")
    if stat.S_ISREG(info.st_mode):
        return Entry("file", info.st_size)
    if stat.S_ISDIR(info.st_mode):
        return Entry("directory")
    return Entry("other")


def _open(real: Path) -> int:
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as error:
        raise ArtifactReadError(f"cannot open: {error.strerror or error}") from error
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ArtifactReadError("not a regular file")
    return fd


def _hash(real: Path) -> str:
    fd = _open(real)
    digest = hashlib.sha256()
    try:
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
    except OSError as error:
        raise ArtifactReadError(f"cannot read: {error.strerror or error}") from error
    finally:
        os.close(fd)
    return f"sha256:{digest.hexdigest()}"


def _read_capped(real: Path) -> bytes:
    fd = _open(real)
    try:
        size = os.fstat(fd).st_size
        if size > MAX_CONTENT_BYTES:
            raise ArtifactTooLargeError(
                f"{size} bytes is over the {MAX_CONTENT_BYTES} byte limit for reading content"
            )
        parts: list[bytes] = []
        total = 0
        # Read to EOF rather than trusting st_size, but never past the cap.
        while chunk := os.read(fd, _CHUNK):
            total += len(chunk)
            if total > MAX_CONTENT_BYTES:
                raise ArtifactTooLargeError(
                    f"over the {MAX_CONTENT_BYTES} byte limit for reading content"
                )
            parts.append(chunk)
    except OSError as error:
        raise ArtifactReadError(f"cannot read: {error.strerror or error}") from error
    finally:
        os.close(fd)
    return b"".join(parts)
