"""Report model of a trial's file trace (docs/tracing.md). Part of ``agentic_evals.report.v2``."""

from __future__ import annotations

from typing import Literal

from agentic_evals.documents.base import OutputModel

TraceMethod = Literal["fanotify", "strace", "unavailable"]
ArtifactWriter = Literal["entrypoint", "wrapper", "untouched"]


class FileTrace(OutputModel):
    """What a traced trial ran, opened and wrote in the skill tree (live and real-world cases)."""

    method: TraceMethod
    """``fanotify`` or ``strace``; ``unavailable`` when nothing could trace the trial."""
    entrypoints: list[str] = []
    """Substantive skill-tree files the trial ran (executed, or run by an interpreter), relative
    to the skill tree."""
    trivial: list[str] = []
    """Skill-tree files it ran that do nothing, each with why (``run.sh: ...``)."""
    checked: list[str] = []
    """Skill-tree files an interpreter only checked (``run.sh (-n)``): nothing ran."""
    stub_opens: list[str] = []
    """Files under a stub location (``fixtures/`` and look-alikes) it opened."""
    stub_copies: list[str] = []
    """Files outside the skill tree whose content is a stub's that it opened, or that its case
    names (``opened /tmp/stub.csv, a copy of fixtures/stub.csv``)."""
    artifacts: dict[str, ArtifactWriter] = {}
    """Each artifact a check reads: written by the entrypoint's process subtree, by the case's
    own wrapper, or not written during the trial."""
    incomplete: list[str] = []
    """Why the record may be short (events that could not be read)."""
    reason: str | None = None
    """Why the trial could not be traced (``unavailable``)."""
