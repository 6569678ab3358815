"""One trial's record in the run report: its problems, streams, changes and trace."""

from typing import Self

from pydantic import model_validator

from agentic_evals.documents.base import OutputModel
from agentic_evals.reports.model.isolation import TrialIsolation
from agentic_evals.reports.model.outcomes import TrialOutcome
from agentic_evals.reports.model.trace import FileTrace


class Problem(OutputModel):
    """Why a trial or case did not pass, with a stable code."""

    code: str
    """Stable code, e.g. ``EXIT_CODE`` or ``ARTIFACT_MISMATCH``."""
    message: str
    """What was expected and what was found."""
    oracle: str | None = None
    """RFC 6901 pointer of the oracle within the case, when one failed."""


class StreamStats(OutputModel):
    """Size of one captured stream."""

    total_bytes: int
    """Everything the process wrote to the stream."""
    kept_bytes: int
    """Bytes kept for the oracles (at most the per-stream cap)."""
    truncated: bool
    """More was written than kept."""


class WorkspaceChangesReport(OutputModel):
    """What a trial changed in its workspace copy, as relative POSIX paths, sorted."""

    added: list[str]
    """Paths that exist after the trial and did not before."""
    changed: list[str]
    """Paths whose type, size or content (sha256, or a symlink's target) changed."""
    removed: list[str]
    """Paths that existed before the trial and do not after."""


class TrialReport(OutputModel):
    """One run of a case's command."""

    trial_id: str
    """``<case_id>#<n>``, n counted from 1."""
    outcome: TrialOutcome
    """Outcome of this trial."""
    problems: list[Problem]
    """Why it did not pass."""
    exit_code: int | None
    """Exit code; null when timed out or the program could not start."""
    term_signal: int | None = None
    """Signal that ended the program, if any."""
    timed_out: bool
    """The trial hit its timeout."""
    duration_ms: int
    """Wall time of the trial."""
    stdout: str
    """First and last 10,000 characters of stdout, secrets redacted."""
    stderr: str
    """First and last 10,000 characters of stderr, secrets redacted."""
    truncated: bool
    """A stream exceeded its cap and was drained without being kept."""
    stdout_stats: StreamStats
    """Size of stdout."""
    stderr_stats: StreamStats
    """Size of stderr."""
    orphan_pids_after_teardown: list[int]
    """Descendants still alive after the command ended; they were killed."""
    artifact_hashes: dict[str, str]
    """sha256 of every existing artifact the oracles looked at."""
    stdout_sha256: str | None = None
    """sha256 of everything the trial wrote to stdout (kept or not): with ``artifact_hashes``,
    what shows whether a case that claims fresh inputs saw any; null when not recorded."""
    trace_method: str | None = None
    """How execs were traced for ``must_exercise`` (``strace`` or ``unavailable``); null
    when the case declares none."""
    traced_execs: int | None = None
    """Successful execs traced after the command's own; null when nothing was traced."""
    workspace_changes: WorkspaceChangesReport | None = None
    """What the trial changed in its private view (workspace, or the skill tree relative to
    the fixture directory); null on the shared tree (or when no view could be made)."""
    workspace_path: str | None = None
    """Where the trial's workspace copy, or its view's upper layer, was kept
    (``run --keep-workspaces``); null when it was deleted or there was none."""
    isolation: TrialIsolation | None = None
    """The trial's private view, network and containment (docs/isolation.md)."""
    null_trial_failures: list[str] | None = None
    """Pointers within the case (``/expected/artifacts/0``) of the problems this trial's null
    trial raised: the checks that could tell it from an idle program (docs/evidence.md); null
    when the trial's program did not run."""
    file_trace: FileTrace | None = None
    """What the trial ran, opened and wrote in the skill tree (docs/tracing.md); null for a
    case that is neither live nor real-world, and for a trial that did not start."""
    reused: bool = False
    """Kept from the report this run resumed (``run --resume``), not run again."""
    reused_from: str | None = None
    """The run id of the run the trial ran in, when it is ``reused``; null otherwise."""

    @property
    def number(self) -> int:
        """The trial's number, from 1: what follows the last ``#`` of its ``trial_id``."""
        return int(self.trial_id.rpartition("#")[2])

    @model_validator(mode="after")
    def _reused_names_its_run(self) -> Self:
        if self.reused != (self.reused_from is not None):
            raise ValueError("a reused trial names the run it ran in (reused_from), no other does")
        return self
