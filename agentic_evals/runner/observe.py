"""What a run tells its observer as it goes: trials starting and ending, cases finished.

The runner calls these from whichever thread runs a trial (``--jobs N`` runs
several at once), so an observer must be thread-safe. A case is finished
when all its trials ran; under ``--jobs`` cases finish in any order, and an
observer that prints must restore fixture order itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agentic_evals.reports.model import TrialReport


class RunObserver(Protocol):
    """Receives the progress of a run (see :mod:`agentic_evals.reports.progress`)."""

    def trial_started(self, position: int, number: int) -> None:
        """Trial ``number`` (from 1) of the case at ``position`` in the run started."""

    def trial_finished(self, position: int, number: int) -> None:
        """That trial ended and was judged."""

    def case_finished(self, position: int, name: str, trials: Sequence[TrialReport]) -> None:
        """Every trial of the case ``name`` at ``position`` ran; ``trials`` holds them in order."""


class Teller:
    """Tells the observer, if there is one; a case is finished when all its trials ran."""

    def __init__(self, observer: RunObserver | None, trials: int) -> None:
        self._observer = observer
        self._trials = trials

    def started(self, position: int, number: int) -> None:
        """Trial ``number`` of the case at ``position`` starts."""
        if self._observer is not None:
            self._observer.trial_started(position, number)

    def added(self, position: int, name: str, trials: Sequence[TrialReport], number: int) -> None:
        """Trial ``number`` of the case ``name`` ended; ``trials`` are its trials so far."""
        if self._observer is None:
            return
        self._observer.trial_finished(position, number)
        if len(trials) == self._trials:
            self._observer.case_finished(position, name, trials)

    def kept(self, position: int, name: str, trials: Sequence[TrialReport]) -> None:
        """The case ``name`` has nothing to run: a resumed run kept all its ``trials``."""
        if self._observer is not None and len(trials) == self._trials:
            self._observer.case_finished(position, name, trials)
