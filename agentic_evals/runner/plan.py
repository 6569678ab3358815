"""What every trial of one case shares, worked out once per case and run."""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agentic_evals.contract.layout import FixtureLayout
from agentic_evals.contract.models import Case, Workspace
from agentic_evals.contract.placeholders import WORKSPACE, resolve
from agentic_evals.oracles.regex import BoundedRegex, compile_pattern
from agentic_evals.redact import Redactor
from agentic_evals.runner.environment import trial_cwd
from agentic_evals.runner.matching import StreamWatch

if TYPE_CHECKING:
    from agentic_evals.runner.containment.run import RunContainment
    from agentic_evals.runner.isolation.run import RunIsolation
    from agentic_evals.runner.stub_copies import StubCopyFinder


@dataclass(frozen=True)
class TrialSettings:
    """Everything a trial needs besides its case."""

    run_id: str
    layout: FixtureLayout
    """The fixture's folder, the skill's tree (nothing outside it is read) and the base of
    relative paths."""
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
    stub_copies: StubCopyFinder | None = None
    """Finds the stubs' copies outside the tree before each traced trial; None when the run
    has no traced case."""

    @functools.cached_property
    def real_tree(self) -> Path:
        """The skill tree with its symlinks resolved, read once per run (the traces' root)."""
        return Path(os.path.realpath(self.layout.skill_tree))

    @functools.cached_property
    def tree_roots(self) -> Mapping[str, Path]:
        """The built-in placeholders' directories without a workspace copy, made once per run."""
        return {name: Path(value) for name, value in self.layout.bindings().items()}

    def roots(self, copy: Path | None) -> dict[str, Path]:
        """The directories artifact paths starting with a built-in placeholder are read in."""
        if copy is None:
            return dict(self.tree_roots)
        return {name: Path(value) for name, value in self.layout.bindings(copy).items()}


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
    placeholders: Mapping[str, str] = field(default_factory=dict)
    """Values of the built-in placeholders but ``${WORKSPACE}``, which each trial adds."""
    patterns: tuple[tuple[BoundedRegex, ...], tuple[BoundedRegex, ...]] = ((), ())
    """The case's ``stdout_regex`` and ``stderr_regex``, compiled once."""

    def watches(self) -> tuple[StreamWatch, StreamWatch]:
        """What a trial's stdout and stderr are watched for, as they flow (fresh per trial)."""
        case, expected = self.case, self.case.expected
        markers = [*case.blocked_when_stdout_contains, *case.infra_blocked_when]
        out = [*expected.stdout_contains, *expected.stdout_excludes, *markers]
        err = [*expected.stderr_contains, *expected.stderr_excludes, *markers]
        return (
            StreamWatch([text.encode() for text in out], self.patterns[0]),
            StreamWatch([text.encode() for text in err], self.patterns[1]),
        )

    def trial_command(self, copy: Path | None) -> tuple[list[str], dict[str, str], Path]:
        """The argv, environment and cwd of a trial (in the workspace ``copy``, if any).

        Placeholders are resolved here, once per trial, in the case's words,
        ``env`` values and ``cwd`` (never in the runner's own environment).
        """
        values = dict(self.placeholders)
        if copy is not None:
            values[WORKSPACE] = str(copy)
        case = self.case
        argv = [resolve(word, values) for word in case.command]
        env = {**self.env, **{key: resolve(value, values) for key, value in case.env.items()}}
        if copy is None:
            return argv, env, self.cwd
        cwd = trial_cwd(copy, resolve(case.cwd, values) if case.cwd else None)
        return argv, env, cwd


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
        layout = settings.layout
        static = layout.bindings()
        env = {**settings.base_env, **{key: resolve(v, static) for key, v in case.env.items()}}
        cwd = layout.path(case.cwd) if case.cwd else layout.base
        chosen = case.workspace or settings.workspace
        source = layout.path(chosen.input) if chosen else None
        program = (resolve(case.command[0], static), env.get("PATH"))
        if program not in self._programs:
            # A program named by ${WORKSPACE} exists only in each trial's copy.
            found = None if "${" in program[0] else find_program(program[0], env)
            self._programs[program] = found
        executable = self._programs[program]
        # The case's own variables are what differ, so they key the redactor.
        key = frozenset(case.env.items())
        redactor = self._redactors.get(key)
        if redactor is None:
            redactor = self._redactors[key] = Redactor(env)
        patterns = (
            tuple(compile_pattern(p) for p in case.expected.stdout_regex),
            tuple(compile_pattern(p) for p in case.expected.stderr_regex),
        )
        return CasePlan(case, case_id, cwd, env, redactor, executable, source, static, patterns)


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
