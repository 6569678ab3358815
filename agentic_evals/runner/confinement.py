"""A run's isolation and containment, set up before its trials and taken down after.

:func:`confined` is what :func:`agentic_evals.evaluation.evaluate.evaluate` wraps a run
in: the private views (:class:`~agentic_evals.runner.isolation.run.RunIsolation`,
first, since an unprivileged runner may have to enter a user namespace while
it is still single-threaded) and the containment
(:class:`~agentic_evals.runner.containment.run.RunContainment`). Whatever
happens to the run, both are released on the way out, before the report is
written. :meth:`Confinement.notes_for_report` collects what the run found
missing or changed, for the report's summary.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from agentic_evals.contract.models import Fixture
from agentic_evals.runner.containment.run import RunContainment
from agentic_evals.runner.isolation.run import RunIsolation
from agentic_evals.runner.isolation.support import disabled_mechanisms
from agentic_evals.runner.reaper import enable_subreaper


@dataclass
class Confinement:
    """The run's isolation and containment, and the notes the scheduler adds."""

    isolation: RunIsolation
    containment: RunContainment
    notes: list[str] = field(default_factory=list)

    def certain_attribution(self) -> bool:
        """Whether trials running side by side can never take each other's processes.

        Their cgroups list them, or each trial thread's private mount namespace
        tells them apart; without either, an escaped process that cleared its
        environment could be missed, so parallel runs go serial.
        """
        return self.containment.cgroups is not None or self.isolation.support.namespaces is None

    def notes_for_report(self) -> list[str]:
        """What the run's containment, isolation and scheduling found missing or changed."""
        return [*self.containment.notes, *self.isolation.notes(), *self.notes]


@contextmanager
def confined(
    fixture: Fixture, fixture_dir: Path, boundary: Path, run_id: str, environ: Mapping[str, str]
) -> Iterator[Confinement]:
    """Set up the run's isolation and containment; release both on the way out."""
    disabled = disabled_mechanisms(environ)
    isolation = RunIsolation.start(fixture, fixture_dir, boundary, run_id, disabled)
    try:
        containment = RunContainment.start(run_id, fixture, disabled, subreaper=enable_subreaper())
        try:
            yield Confinement(isolation, containment)
        finally:
            containment.close()
    finally:
        isolation.close()
