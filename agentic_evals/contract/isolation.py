"""Fixture fields for isolation and containment: ``isolation``, ``limits``, ``network``.

They are written at the top level and per case; a case's value wins (for
``limits``, key by key). What they do at run time is documented in
``docs/isolation.md``; the runner's side is :mod:`agentic_evals.runner.isolation`
and :mod:`agentic_evals.runner.containment`.
"""

from typing import Annotated

from pydantic import Field

from agentic_evals.contract.vocabulary import IsolationMode, NetworkMode
from agentic_evals.documents.base import InputModel

MAX_MEMORY_MB = 16 * 2**20
"""16 TiB: more than any machine this runs on, and far from overflowing a byte count."""
MAX_PIDS = 4_194_304
"""The kernel's largest pid_max."""
MAX_CPU_SECONDS = 31_536_000
"""A year of CPU time."""
MAX_FILE_SIZE_MB = 2**30
"""1 PiB."""
MAX_OPEN_FILES = 1_048_576
"""The kernel's default nr_open: a larger RLIMIT_NOFILE is refused."""


class Limits(InputModel):
    """Resource limits of each trial; unset means no limit (``pids``: 1024 by default)."""

    memory_mb: Annotated[int, Field(ge=1, le=MAX_MEMORY_MB)] | None = None
    """Memory of the trial's processes together, in MiB (a memory cgroup; else RLIMIT_AS
    per process)."""
    pids: Annotated[int, Field(ge=1, le=MAX_PIDS)] | None = None
    """Processes and threads of the trial at once (a pids cgroup); default 1024."""
    cpu_seconds: Annotated[int, Field(ge=1, le=MAX_CPU_SECONDS)] | None = None
    """CPU seconds per process (RLIMIT_CPU)."""
    file_size_mb: Annotated[int, Field(ge=0, le=MAX_FILE_SIZE_MB)] | None = None
    """Largest file a process may write, in MiB (RLIMIT_FSIZE)."""
    open_files: Annotated[int, Field(ge=1, le=MAX_OPEN_FILES)] | None = None
    """Open file descriptors per process (RLIMIT_NOFILE)."""


class IsolationSettings(InputModel):
    """The fields shared by the fixture and its cases."""

    isolation: IsolationMode | None = None
    """The trial's private view: ``auto`` (default), ``overlay``, ``copy`` (needs a workspace)
    or ``none`` (the shared tree)."""
    limits: Limits | None = None
    """Resource limits of each trial; a case's keys override the fixture's."""
    network: NetworkMode | None = None
    """``none``: each trial gets a network namespace with only loopback; ``host`` (default)."""
