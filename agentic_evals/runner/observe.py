"""What a run tells its observer as it goes: trials starting and ending, cases finished.

The runner calls these from whichever thread runs a trial (``--jobs N`` runs
several at once), so an observer must be thread-safe. A case is finished
when all its trials ran; under ``--jobs`` cases finish in any order, and an
observer that prints must restore fixture order itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agentic_evals.reports.build import CaseRun


class RunObserver(Protocol):
    """Receives the progress of a run (see :mod:`agentic_evals.reports.progress`)."""

    def trial_started(self, position: int, number: int) -> None:
        """Trial ``number`` (from 1) of the case at ``position`` in the run started."""

    def trial_finished(self, position: int, number: int) -> None:
        """That trial ended and was judged."""

    def case_finished(self, position: int, run: CaseRun) -> None:
        """Every trial of the case at ``position`` ran; ``run.trials`` holds them in order."""
