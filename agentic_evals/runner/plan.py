"""What every trial of one case shares, worked out once per case and run."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentic_evals.contract.models import Case, Workspace
from agentic_evals.redact import Redactor
from agentic_evals.runner.environment import trial_cwd

if TYPE_CHECKING:
    from agentic_evals.runner.containment.run import RunContainment
    from agentic_evals.runner.isolation.run import RunIsolation


@dataclass(frozen=True)
class TrialSettings:
    """Everything a trial needs besides its case."""

    run_id: str
    fixture_dir: Path
    boundary: Path
    base_env: Mapping[str, str]
    default_timeout: float
    grace_seconds: float
    stream_cap: int
    workspace: Workspace | None = None
    """The fixture-level workspace; a case's own workspace wins over it."""
    keep_workspaces: bool = False
    """Keep each trial's workspace copy, or its view's upper layer (its path goes in the report)."""
    isolation: RunIsolation | None = None
    """The run's private views; None runs on the shared tree (or a copy of a workspace)."""
    containment: RunContainment | None = None
    """The run's cgroups, limits and network namespaces; None contains by the subreaper only."""


@dataclass(frozen=True)
class CasePlan:
    """What every trial of one case shares, worked out once per case."""

    case: Case
    case_id: str
    cwd: Path
    """The working directory; without a workspace only (see ``workspace``)."""
    env: Mapping[str, str]
    """The runner's environment plus the case's; markers are added per trial."""
    redactor: Redactor
    """Redacts the report; the markers differ per trial but are not secrets."""
    executable: str | None
    """The program found on ``PATH``, or None to let the spawn search."""
    workspace: Path | None = None
    """The directory each trial copies and runs in (``cwd`` then applies inside the
    copy); None runs the trials in ``cwd`` itself."""


class CasePlanner:
    """Plans the cases of one run, sharing what their environments have in common.

    Cases whose environments are equal (usually: none of them sets ``env``)
    share one redactor, and a program is looked up once per ``PATH``. The
    sharing lasts one run, so a program installed between runs is found.
    """

    def __init__(self, settings: TrialSettings) -> None:
        self._settings = settings
        self._redactors: dict[frozenset[tuple[str, str]], Redactor] = {}
        self._programs: dict[tuple[str, str | None], str | None] = {}

    def plan(self, case: Case, case_id: str) -> CasePlan:
        """Return the shared part of every trial of ``case``."""
        settings = self._settings
        env = {**settings.base_env, **case.env}
        cwd = trial_cwd(settings.fixture_dir, case.cwd)
        chosen = case.workspace or settings.workspace
        source = settings.fixture_dir / chosen.input if chosen else None
        program = (case.command[0], env.get("PATH"))
        if program not in self._programs:
            self._programs[program] = find_program(case.command[0], env)
        executable = self._programs[program]
        # The case's own variables are what differ, so they key the redactor.
        key = frozenset(case.env.items())
        redactor = self._redactors.get(key)
        if redactor is None:
            redactor = self._redactors[key] = Redactor(env)
        return CasePlan(case, case_id, cwd, env, redactor, executable, source)


def find_program(program: str, env: Mapping[str, str]) -> str | None:
    """Resolve a bare program name on the trial's ``PATH``, as the spawn would.

    Only when every ``PATH`` entry is absolute: a relative entry depends on
    the trial's working directory, so the spawn must search itself. A path
    with a slash, or a program not found, is left to the spawn too (it then
    reports the error in its own words).
    """
    if "/" in program:
        return None
    entries = env.get("PATH", os.defpath).split(os.pathsep)
    if not all(os.path.isabs(entry) for entry in entries):
        return None
    return shutil.which(program, path=os.pathsep.join(entries))
