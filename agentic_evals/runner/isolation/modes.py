"""Which private view a case's trials get: what the case asks, and what is there.

``isolation`` (case, else fixture, else ``auto``):

- ``auto``: an overlay where the kernel allows one; else a copy when the
  case has a workspace; else the shared tree;
- ``overlay``: the same order, but falling short of an overlay is a
  warning (a requested mechanism that was not available);
- ``copy``: a copy of the workspace (the loader requires one);
- ``none``: the shared tree, as asked.

The decision is made once per case, before any trial runs, from what the
run found the kernel allows, so that a serial and a parallel run decide the
same way.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from agentic_evals.contract.models import Case, Fixture

Mode = Literal["overlay", "copy", "none"]
"""The view a trial runs in."""


class Planned(NamedTuple):
    """A case's view and, when it is weaker than asked, why."""

    requested: Literal["auto", "overlay", "copy", "none"]
    mode: Mode
    shortfall: str | None
    """Set when the author asked for ``overlay`` and got less."""
    note: str | None
    """Why ``auto`` could give no private view (not a warning: nothing was asked)."""


def requested_isolation(case: Case, fixture: Fixture) -> Literal["auto", "overlay", "copy", "none"]:
    """The isolation the case asks for: its own, else the fixture's, else ``auto``."""
    return case.isolation or fixture.isolation or "auto"


def plan_mode(case: Case, fixture: Fixture, overlay_problem: str | None) -> Planned:
    """Decide the view of ``case``'s trials.

    Args:
        case: The case.
        fixture: Its fixture (for the fixture-level ``isolation`` and ``workspace``).
        overlay_problem: Why overlays cannot be mounted here; None when they can.
    """
    asked = requested_isolation(case, fixture)
    has_workspace = (case.workspace or fixture.workspace) is not None
    if asked in ("copy", "none"):
        return Planned(asked, asked, None, None)
    if overlay_problem is None:
        return Planned(asked, "overlay", None, None)
    fallback: Mode = "copy" if has_workspace else "none"
    if asked == "overlay":
        shortfall = f"isolation overlay is not available ({overlay_problem}); ran with {fallback}"
        return Planned(asked, fallback, shortfall, None)
    note = None
    if fallback == "none":
        note = f"no private view: overlays are not available ({overlay_problem}) and no workspace"
    return Planned(asked, fallback, None, note)
