"""What oracles see and what they return.

The runner package is written against these protocols rather than imported:
oracles grade a finished trial through the members listed here, so tests can
drive them with plain dataclasses and the process layer stays free to change
its internals.

Oracles always see the raw captured bytes, never report text: redaction
(``agentic_evals.redact``) is applied by the report builder afterwards.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from jsonpointer import JsonPointer, JsonPointerException

from agentic_evals import clock, codes
from agentic_evals.limits import MAX_ORACLE_SECONDS
from agentic_evals.reports.model import Problem, WorkspaceChangesReport

OracleGroup = Literal["exit_code", "output", "readback"]
"""Which family an oracle belongs to.

``exit_code`` is the exit code oracle, ``output`` the stdout/stderr
contains/excludes oracles, ``readback`` everything that looks at state the
trial left behind (``artifacts``, ``workspace_changes``).
"""

_GROUP_OF_KEY: dict[str, OracleGroup] = {
    "exit_code": "exit_code",
    "stdout_contains": "output",
    "stderr_contains": "output",
    "stdout_excludes": "output",
    "stderr_excludes": "output",
    "stdout_regex": "output",
    "stderr_regex": "output",
    "artifacts": "readback",
    "workspace_changes": "readback",
}


class StreamLike(Protocol):
    """One captured output stream of a trial."""

    @property
    def total_bytes(self) -> int:
        """Everything the process wrote to the stream."""
        ...

    @property
    def kept_bytes(self) -> int:
        """Bytes kept for the oracles."""
        ...

    @property
    def truncated(self) -> bool:
        """More was written than kept."""
        ...

    def contains(self, needle: bytes) -> bool:
        """Whether the stream contains ``needle``.

        The whole stream when ``needle`` was watched as it flowed, else the kept bytes.
        """
        ...

    def saw_all(self, needle: bytes) -> bool:
        """Whether ``contains(needle)`` read every byte written, the dropped ones too."""
        ...

    def matches(self, pattern: str) -> bool:
        """Whether the stream pattern ``pattern`` matched (see ``stdout_regex``)."""
        ...

    def excerpt(self, limit_chars: int = 10_000) -> str:
        """Return the head and tail of the stream decoded for the report."""
        ...


class ProcessOutcomeLike(Protocol):
    """What the process layer observed about one trial."""

    @property
    def exit_code(self) -> int | None:
        """Exit code; None when timed out or the program could not start."""
        ...

    @property
    def term_signal(self) -> int | None:
        """Signal that ended the program, if any."""
        ...

    @property
    def timed_out(self) -> bool:
        """The trial hit its timeout."""
        ...

    @property
    def start_error(self) -> str | None:
        """Why the program could not start, if it could not."""
        ...

    @property
    def duration_ms(self) -> int:
        """Wall time of the trial."""
        ...

    @property
    def stdout(self) -> StreamLike:
        """Captured stdout."""
        ...

    @property
    def stderr(self) -> StreamLike:
        """Captured stderr."""
        ...

    @property
    def orphan_pids(self) -> tuple[int, ...]:
        """Descendants still alive after teardown (they were killed)."""
        ...


@dataclass(frozen=True)
class OracleContext:
    """Where a trial's artifacts live and what may be read.

    Attributes:
        artifact_root: Directory artifact paths are relative to (the fixture
            directory, or the trial workspace).
        boundary: Nothing outside this directory is ever opened, hashed or
            listed (the skill tree, or the workspace). ``artifact_root``
            should lie inside it; when it does not, every artifact check fails
            as unsafe.
        workspace_changes: What the trial changed in its private view (its
            workspace, or the skill tree); None on the shared tree.
        roots: The directories of the built-in placeholders (``SKILL_ROOT``,
            ``FIXTURE_DIR``, ``WORKSPACE``): a path starting with one is read
            inside that directory, which is then its boundary.
        pre_trial: The tree as it was before the trial, laid out like this
            context; None on the shared tree (see :class:`PreTrialState`).
        deadline: The monotonic time by which the checks must be done (see
            :func:`out_of_time`); None until the registry sets it.
    """

    artifact_root: Path
    boundary: Path
    workspace_changes: WorkspaceChangesReport | None = None
    roots: Mapping[str, Path] = field(default_factory=dict)
    pre_trial: PreTrialState | None = None
    deadline: float | None = None


def out_of_time(ctx: OracleContext, pointer: str) -> OracleResult | None:
    """``ORACLE_TIMEOUT`` at ``pointer`` once ``ctx``'s deadline passed (None before it).

    Checked before each check: the check at ``pointer`` and those after it are not run.
    """
    if ctx.deadline is None or clock.monotonic() <= ctx.deadline:
        return None
    message = (
        f"the trial's checks ran past their {MAX_ORACLE_SECONDS:g}s: {pointer} and the checks "
        "after it were not evaluated"
    )
    return OracleResult([Problem(code=codes.ORACLE_TIMEOUT, message=message, oracle=pointer)])


PreTrialSource = Literal["lower", "copy_source"]
"""Where a pre-trial state is read from: an overlay's lower layer, or a copy's source."""


@dataclass(frozen=True)
class PreTrialState:
    """The tree as it was before one trial ran, for judging checks against it.

    Evidence rules ask whether a check would also pass had the command done
    nothing (the null trial): an artifact check is evaluated against
    :meth:`oracle_context`, which reads the tree before the trial. Every
    isolated trial has one:

    - ``lower``: an overlay's lower layer, which the trial never writes to;
    - ``copy_source``: the workspace input a copy was made from, which the
      trial does not run in.

    A trial on the shared tree (``isolation: none``) has none: it changed the
    very files the state would be read from. The paths are valid while the
    trial is judged, in the thread that judges it (the lower layer is a
    read-only bind in that thread's private mount namespace), until the run
    ends.
    """

    source: PreTrialSource
    """``lower`` (overlay) or ``copy_source`` (the input of a copy)."""
    root: Path
    """The pre-trial counterpart of the trial's boundary (skill tree or workspace)."""
    artifact_root: Path
    """The pre-trial counterpart of the directory artifact paths are relative to."""

    def oracle_context(self) -> OracleContext:
        """An oracle context that reads artifacts from the pre-trial tree."""
        return OracleContext(artifact_root=self.artifact_root, boundary=self.root)


@dataclass
class OracleResult:
    """Problems found by the oracles of one trial, and what they looked at.

    Attributes:
        problems: Every problem, in oracle order; each names its oracle by
            RFC 6901 pointer inside the case.
        artifact_hashes: Relative artifact path (POSIX form, as seen from the
            artifact root) to ``sha256:<hex>`` for every existing regular file
            the checks looked at.
    """

    problems: list[Problem] = field(default_factory=list)
    artifact_hashes: dict[str, str] = field(default_factory=dict)

    def extend(self, other: OracleResult) -> None:
        """Add another result's problems and hashes to this one."""
        self.problems.extend(other.problems)
        self.artifact_hashes.update(other.artifact_hashes)

    def in_group(self, group: OracleGroup) -> list[Problem]:
        """Return the problems raised by oracles of ``group``."""
        return problems_in_group(self.problems, group)


@functools.lru_cache(maxsize=4096)
def oracle_pointer(*parts: str | int) -> str:
    """Return the RFC 6901 pointer of an oracle, e.g. ``/expected/artifacts/2``."""
    return JsonPointer.from_parts(["expected", *parts]).path


def oracle_group(problem: Problem) -> OracleGroup | None:
    """Return the family of the oracle that raised ``problem``.

    The group is read from the problem's pointer (``/expected/<key>/...``), so
    it works as well on problems read back from a report. Problems that no
    oracle raised (timeouts, orphans, markers) have no group.
    """
    if not problem.oracle:
        return None
    try:
        parts = JsonPointer(problem.oracle).parts
    except JsonPointerException:
        return None
    if len(parts) < 2 or parts[0] != "expected":
        return None
    return _GROUP_OF_KEY.get(parts[1])


def problems_in_group(problems: Iterable[Problem], group: OracleGroup) -> list[Problem]:
    """Return the problems of ``problems`` raised by oracles of ``group``."""
    return [p for p in problems if oracle_group(p) == group]


def shorten(text: str, limit: int = 200) -> str:
    """Return ``text`` cut to ``limit`` characters, marking the cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"
