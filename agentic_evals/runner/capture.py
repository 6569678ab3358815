"""Bounded capture of the output streams of a trial process.

A trial may print gigabytes; the runner must not hold that in memory. A
:class:`StreamSink` keeps the first ``stream_cap`` bytes (in memory up to
``spool_threshold``, then in an anonymous temporary file) and only counts the
rest; :meth:`StreamSink.finish` turns it into a read-only :class:`CapturedStream`.
A sink with a :class:`~agentic_evals.runner.matching.StreamWatch` also shows
it every byte, kept or not, so that the stream oracles see the whole stream.
:class:`~agentic_evals.runner.pump.PipePump` moves bytes from pipes into sinks.
"""

from __future__ import annotations

import hashlib
import io
import tempfile
from typing import IO

from agentic_evals.oracles.regex import compile_pattern
from agentic_evals.runner.matching import StreamWatch

DEFAULT_STREAM_CAP = 64 * 2**20
DEFAULT_SPOOL_THRESHOLD = 2**20
SEARCH_CHUNK = 2**20
"""How many bytes :meth:`CapturedStream.contains` reads at a time."""

_MAX_UTF8_CHAR = 4


class StreamSink:
    """Writer side of a captured stream: counts every byte, keeps the first ``stream_cap``.

    Args:
        stream_cap: Maximum number of bytes retained; later bytes are only counted.
        spool_threshold: Bytes kept in memory before moving the content to disk.
        watch: Stream oracles matched on every byte as it flows.
        digest: Hash every byte written (the result's ``sha256``).
    """

    def __init__(
        self,
        *,
        stream_cap: int = DEFAULT_STREAM_CAP,
        spool_threshold: int = DEFAULT_SPOOL_THRESHOLD,
        watch: StreamWatch | None = None,
        digest: bool = False,
    ) -> None:
        if stream_cap < 0 or spool_threshold < 0:
            raise ValueError("stream_cap and spool_threshold must not be negative")
        self._cap = stream_cap
        self._threshold = spool_threshold
        self._file: IO[bytes] = io.BytesIO()
        self._on_disk = False
        self._total = 0
        self._kept = 0
        self._watch = watch
        self._problem: str | None = None
        self._digest = hashlib.sha256() if digest else None

    def write(self, chunk: bytes) -> None:
        """Record ``chunk``; bytes past the cap are counted (and watched) and dropped."""
        self._total += len(chunk)
        if self._digest is not None:
            self._digest.update(chunk)
        if self._watch is not None:
            self._watch.feed(chunk)
        room = self._cap - self._kept
        if room <= 0 or not chunk:
            return
        part = chunk if len(chunk) <= room else memoryview(chunk)[:room]
        try:
            if not self._on_disk and self._kept + len(part) > self._threshold:
                self._spill()
            self._file.write(part)
        except OSError as error:
            # A full TMPDIR: keep what was kept, count (and watch) the rest, say why.
            self._problem = f"cannot keep more of the stream: {error.strerror or error}"
            self._cap = self._kept
            return
        self._kept += len(part)

    def finish(self) -> CapturedStream:
        """Return the captured content; the sink must not be written to afterwards."""
        if self._watch is not None:
            self._watch.finish()
        captured = CapturedStream(self._file, self._total, self._kept, self._on_disk, self._watch)
        captured.problem = self._problem
        captured.sha256 = None if self._digest is None else self._digest.hexdigest()
        return captured

    def discard(self) -> None:
        """Release the buffer without producing a result (used on error paths)."""
        self._file.close()

    def _spill(self) -> None:
        # An unnamed temporary file is unlinked at once, so nothing leaks on a crash.
        disk = tempfile.TemporaryFile(prefix="agentic-evals-")
        assert isinstance(self._file, io.BytesIO)
        try:
            disk.write(self._file.getbuffer())
        except OSError:
            disk.close()  # the bytes in memory stay the kept ones
            raise
        self._file.close()
        self._file = disk
        self._on_disk = True


class CapturedStream:
    """The retained bytes of one stream plus counts of what was written.

    Reads seek a shared file handle, so one instance must not be read from
    several threads at once.
    """

    def __init__(
        self,
        file: IO[bytes],
        total_bytes: int,
        kept_bytes: int,
        on_disk: bool,
        watch: StreamWatch | None = None,
    ) -> None:
        self._file = file
        self._watch = watch
        self.total_bytes = total_bytes
        """Everything the process wrote to the stream."""
        self.kept_bytes = kept_bytes
        """Bytes retained (at most the stream cap)."""
        self.on_disk = on_disk
        """Whether the retained bytes were spooled to a temporary file."""
        self.problem: str | None = None
        """Why fewer bytes than the cap were kept (a full TMPDIR), if they were."""
        self.sha256: str | None = None
        """sha256 of every byte written (kept or not); None when it was not computed."""

    @property
    def truncated(self) -> bool:
        """Whether the process wrote more than was kept."""
        return self.total_bytes > self.kept_bytes

    def _read_at(self, offset: int, size: int) -> bytes:
        self._file.seek(offset)
        return self._file.read(size)

    def saw_all(self, needle: bytes) -> bool:
        """Whether :meth:`contains` judges ``needle`` on every byte written (it was watched)."""
        return not self.truncated or (self._watch is not None and needle in self._watch.needles)

    def matches(self, pattern: str) -> bool:
        """Whether ``pattern`` matched: over the whole stream when watched, else the kept bytes."""
        if self._watch is not None and pattern in self._watch.patterns:
            return pattern in self._watch.matched
        watch = StreamWatch(patterns=[compile_pattern(pattern)])
        self._file.seek(0)
        while data := self._file.read(SEARCH_CHUNK):
            watch.feed(data)
        watch.finish()
        return bool(watch.matched)

    def contains(self, needle: bytes) -> bool:
        """Whether ``needle`` occurs in the stream.

        In the whole stream when it was watched, else in the kept bytes, read in
        bounded chunks.
        """
        if not needle:
            return True
        if self._watch is not None and needle in self._watch.needles:
            return needle in self._watch.found
        overlap = len(needle) - 1
        chunk = max(SEARCH_CHUNK, 2 * len(needle))
        carry = b""
        self._file.seek(0)
        while data := self._file.read(chunk):
            window = carry + data
            if needle in window:
                return True
            # Keep the last len(needle)-1 bytes so a match spanning two chunks is found.
            carry = window[len(window) - overlap :] if overlap else b""
        return False

    def head(self, n: int) -> bytes:
        """Return the first ``n`` kept bytes."""
        return self._read_at(0, max(n, 0))

    def tail(self, n: int) -> bytes:
        """Return the last ``n`` kept bytes."""
        n = min(max(n, 0), self.kept_bytes)
        return self._read_at(self.kept_bytes - n, n)

    def read_all(self) -> bytes:
        """Return the whole kept content; the caller is responsible for its size."""
        return self._read_at(0, self.kept_bytes)

    def excerpt(self, limit_chars: int = 10_000) -> str:
        """Return the kept content as text, eliding the middle when it is long.

        Decodes UTF-8 with replacement characters. Content of at most
        ``2 * limit_chars`` characters is returned whole; longer content keeps the
        first and last ``limit_chars`` characters around an omission marker. A
        note is appended when the stream was truncated at the cap.
        """
        if limit_chars <= 0:
            raise ValueError("limit_chars must be positive")
        note = ""
        if self.truncated:
            why = f" ({self.problem})" if self.problem else ""
            note = (
                f"\n[... output truncated: {self.total_bytes} bytes written, "
                f"only the first {self.kept_bytes} kept{why} ...]\n"
            )
        window = _MAX_UTF8_CHAR * limit_chars
        if self.kept_bytes > 2 * limit_chars:
            head_text, head_len = _first_chars(self._read_at(0, window), limit_chars)
            tail_text, tail_len = _last_chars(
                self._read_at(max(self.kept_bytes - window, 0), window),
                limit_chars,
                at_start=self.kept_bytes <= window,
            )
            omitted = self.kept_bytes - head_len - tail_len
            if omitted > 0:
                marker = f"\n[... {omitted} bytes omitted ...]\n"
                return _displayable(head_text) + marker + _displayable(tail_text) + note
        # Short enough: at most 2 * window bytes are read here.
        return self.read_all().decode("utf-8", errors="replace") + note

    def close(self) -> None:
        """Release the buffer or temporary file."""
        self._file.close()

    def __enter__(self) -> CapturedStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _first_chars(data: bytes, n: int) -> tuple[str, int]:
    # surrogateescape maps each undecodable byte to one character, so the
    # character count maps back to an exact byte count.
    text = data.decode("utf-8", errors="surrogateescape")[:n]
    return text, len(text.encode("utf-8", errors="surrogateescape"))


def _last_chars(data: bytes, n: int, *, at_start: bool) -> tuple[str, int]:
    if not at_start:
        # The window may begin inside a multi-byte character: skip its continuation bytes.
        skip = 0
        while skip < min(len(data), _MAX_UTF8_CHAR - 1) and 0x80 <= data[skip] < 0xC0:
            skip += 1
        data = data[skip:]
    text = data.decode("utf-8", errors="surrogateescape")[-n:]
    return text, len(text.encode("utf-8", errors="surrogateescape"))


def _displayable(text: str) -> str:
    return text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
