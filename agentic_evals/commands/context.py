"""Where a case's command runs: its working directory, its workspace and the skill tree."""

from __future__ import annotations

from pathlib import Path

from agentic_evals.commands.analysis import CommandContext
from agentic_evals.contract.models import Case, Fixture


def case_context(fixture: Fixture, case: Case, fixture_dir: Path) -> CommandContext:
    """Where ``case`` runs: its cwd (in its workspace, if any) and the skill tree."""
    workspace = case.workspace or fixture.workspace
    return CommandContext.for_case(
        fixture_dir,
        cwd=case.cwd,
        workspace=workspace.input if workspace else None,
        env=case.env,
        skill_root=fixture.skill_root,
    )
