"""A selected case of a run and the trials it ran so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentic_evals.reports.model import TrialReport

if TYPE_CHECKING:
    from agentic_evals.contract.models import Case, Fixture


@dataclass
class CaseRun:
    """A selected case and the trials that ran so far."""

    index: int
    """The case's position in the fixture."""
    case: Case
    raw: dict[str, Any]
    """The case as the document wrote it (its identity hashes are taken from it)."""
    trials: list[TrialReport] = field(default_factory=list)
    """The trials so far, in number order (a resumed run starts with the ones it kept)."""
    pending: tuple[int, ...] | None = None
    """The numbers of the trials still to run; None runs them all (1 to the fixture's)."""

    def case_id(self, fixture: Fixture) -> str:
        """Return the stable id ``<skill>::<name>``."""
        return f"{fixture.skill}::{self.case.name}"

    def to_run(self, trials: int) -> tuple[int, ...]:
        """The numbers of the trials to run, of ``trials`` per case."""
        return tuple(range(1, trials + 1)) if self.pending is None else self.pending

    def add(self, trial: TrialReport) -> None:
        """Add a trial that ran, in number order among the others."""
        self.trials.append(trial)
        if len(self.trials) > 1 and self.trials[-2].number > trial.number:
            self.trials.sort(key=lambda kept: kept.number)  # it filled a gap among kept ones
