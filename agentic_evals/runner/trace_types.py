"""What an exec tracer records and how the runner drives one (SPEC 3.5)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol


class Exec(NamedTuple):
    """One ``execve``/``execveat`` seen by a tracer."""

    pid: int
    """The process that called it."""
    path: str
    """The program path as passed to the call (may be relative; empty for ``fexecve``)."""
    argv: tuple[str, ...]
    """The argument vector, ``argv[0]`` included (a tracer may shorten very long ones)."""
    error: str | None = None
    """None when the call succeeded, else the error (e.g. ``ENOEXEC (Exec format error)``)."""


class Launch(NamedTuple):
    """What to spawn instead of the trial's own command."""

    argv: tuple[str, ...]
    env: Mapping[str, str]


class Tracer(Protocol):
    """A way to record every exec of a trial's process tree."""

    @property
    def name(self) -> str:
        """The tracing method, as reports name it (e.g. ``strace``)."""
        ...

    def problem(self) -> str | None:
        """Why this tracer cannot trace here, or None when it can."""
        ...

    def wrap(self, argv: Sequence[str], env: Mapping[str, str], workdir: Path) -> Launch:
        """Return what runs ``argv`` (with ``env``) traced, recording into ``workdir``."""
        ...

    def finish(self, workdir: Path, leader: int | None = None) -> bool:
        """Wait until the record in ``workdir`` is complete; False if it may not be.

        ``leader`` is the pid the trial was spawned as, if known.
        """
        ...

    def execs(self, workdir: Path) -> Iterator[Exec]:
        """Every recorded exec, successful or not, in order."""
        ...

    def killed(self, workdir: Path) -> frozenset[int]:
        """The traced processes that a signal killed (the runner's, at a timeout)."""
        ...
