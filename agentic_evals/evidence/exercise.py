"""The load-time check of ``must_exercise``: every entry names a file that does something."""

from __future__ import annotations

from pathlib import Path

from agentic_evals import codes
from agentic_evals.commands.context import case_context
from agentic_evals.contract.models import Fixture
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.runner.exercise import resolve_entry, trivial_entry


def exercise_findings(fixture: Fixture, directory: Path) -> list[Finding]:
    """A finding per ``must_exercise`` entry that names no file, or a file doing nothing."""
    found: list[Finding] = []
    for index, case in enumerate(fixture.cases):
        if not case.must_exercise:
            continue
        ctx = case_context(fixture, case, directory)
        for position, entry in enumerate(case.must_exercise):
            pointer = f"/cases/{index}/must_exercise/{position}"
            resolved = resolve_entry(entry, ctx.cwd, ctx.skill_root, ctx.env)
            if resolved is None:
                message = (
                    f"must_exercise entry {entry!r} names no file: not under the case's "
                    f"working directory or the skill tree, and no program of that name is "
                    "on the case's PATH"
                )
                found.append(finding(codes.SCHEMA_MUST_EXERCISE, pointer, message))
                continue
            why = trivial_entry(entry, resolved)
            if why is not None:
                message = f"must_exercise entry {entry!r} ({resolved}) is trivial: {why}"
                found.append(finding(codes.SCHEMA_MUST_EXERCISE, pointer, message))
    return found
