"""A trial's frame: the view it runs in and the containment around it, set up and down.

:func:`open_frame` makes both for one trial in the calling thread (the view
from the run's :class:`~agentic_evals.runner.isolation.run.RunIsolation`,
the containment from its
:class:`~agentic_evals.runner.containment.run.RunContainment`); a run
without them (a library caller's bare settings) gets the shared tree, or a
copy of the case's workspace, and no containment. :meth:`TrialFrame.close`
releases the view and tells the run what the trial did to the shared tree.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentic_evals import codes
from agentic_evals.contract.layout import FixtureLayout
from agentic_evals.contract.models import Case
from agentic_evals.reports.model import TrialIsolation
from agentic_evals.runner.containment.trial import TrialContainment
from agentic_evals.runner.isolation.copy import WorkspaceUnavailableError
from agentic_evals.runner.isolation.modes import requested_isolation
from agentic_evals.runner.isolation.run import ViewUnavailableError
from agentic_evals.runner.isolation.views import CopyView, TrialView, shared_view
from agentic_evals.runner.trace import startable

if TYPE_CHECKING:
    from agentic_evals.runner.plan import CasePlan, TrialSettings


@dataclass
class TrialFrame:
    """One trial's view and containment."""

    view: TrialView
    containment: TrialContainment | None
    record: TrialIsolation | None
    """What the report says about them; None for a run without isolation settings."""
    _settings: TrialSettings
    _closed: bool = False

    def argv(
        self, argv: Sequence[str], env: Mapping[str, str], executable: str | None
    ) -> tuple[tuple[str, ...], str | None]:
        """The command to spawn (behind the containment's wrappers) and its executable."""
        containment = self.containment
        if containment is None or not containment.wrapper:
            return tuple(argv), executable
        wrapped = containment.wrap(argv, startable=startable(argv[0], env, self.view.cwd))
        return wrapped, (executable if wrapped == tuple(argv) else None)

    def close(self) -> str | None:
        """Release the view (once); return where its changes were kept (``--keep-workspaces``)."""
        if self._closed:
            return None
        self._closed = True
        settings = self._settings
        try:
            return self.view.finish(settings.keep_workspaces)
        finally:
            if settings.isolation is not None and self.view.mode == "none":
                settings.isolation.shared_tree_changed()
            if settings.containment is not None and self.containment is not None:
                settings.containment.trial_done(self.containment)


def open_frame(plan: CasePlan, settings: TrialSettings) -> TrialFrame:
    """Make the view and containment of one trial of ``plan`` in the calling thread.

    Raises:
        ViewUnavailableError: The view could not be made; nothing runs.
    """
    case = plan.case
    if plan.workspace is not None:
        _check_workspace(plan.workspace, settings.layout)
    if settings.isolation is None:
        view = _bare_view(plan, settings)
    else:
        view = settings.isolation.open_view(case, plan.workspace)
    containment = None
    if settings.containment is not None:
        containment = settings.containment.for_trial(case)
        if settings.isolation is not None:
            containment.namespace = settings.isolation.namespace()
    return TrialFrame(view, containment, _record(case, settings, view, containment), settings)


def _bare_view(plan: CasePlan, settings: TrialSettings) -> TrialView:
    if plan.workspace is None:
        layout = settings.layout
        return shared_view(layout.base, layout.skill_tree, plan.case.cwd)
    try:
        return CopyView(plan.workspace, plan.case.cwd)
    except WorkspaceUnavailableError as error:
        raise ViewUnavailableError(codes.WORKSPACE_UNAVAILABLE, str(error)) from error


def _check_workspace(source: Path, layout: FixtureLayout) -> None:
    """A workspace input lies in the skill's tree, or in the fixture's own folder."""
    real = Path(os.path.realpath(source))
    allowed = (layout.skill_tree, layout.fixture_dir)
    if not any(real.is_relative_to(os.path.realpath(root)) for root in allowed):
        tree = str(layout.skill_tree)
        message = f"workspace input {str(source)!r} resolves outside {tree!r}"
        raise ViewUnavailableError(codes.WORKSPACE_UNAVAILABLE, message)


def _record(
    case: Case, settings: TrialSettings, view: TrialView, containment: TrialContainment | None
) -> TrialIsolation | None:
    isolation = settings.isolation
    if isolation is None:
        return None
    planned = isolation.planned(case)
    unavailable = [planned.shortfall] if planned.shortfall else []
    if containment is not None:
        unavailable += containment.unavailable
    offline = containment is not None and containment.offline
    mechanisms = tuple(containment.mechanisms) if containment is not None else ()
    requested = requested_isolation(case, isolation.fixture)
    # Trials recorded alike share one record, made once (and never changed).
    key = (requested, view.mode, offline, mechanisms, tuple(unavailable), tuple(view.not_copied))
    record = isolation.records.get(key)
    if record is None:
        record = isolation.records[key] = TrialIsolation(
            mode=view.mode,
            requested=requested,
            network="none" if offline else "host",
            mechanisms=list(mechanisms),
            unavailable=unavailable,
            not_copied=list(view.not_copied),
        )
    return record
