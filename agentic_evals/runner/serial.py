"""A serial run: one trial after another, with the runner's own work beside them.

Trials never overlap: each trial's processes are all gone, and its orphans
found and killed, before the next one starts. What the runner does for a
trial besides spawning it happens, where it can, while another trial's
program loads and runs: the last trial is judged and the next trial's
command is made (:class:`_SerialOrder`) once the current one runs, and a
short trial's exit is polled for rather than slept on, with the cores kept
awake meanwhile (:mod:`agentic_evals.runner.polling`). Between one trial's
end and the next one's spawn only the view, the containment and the spawn
are left.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentic_evals.runner.interrupt import Interrupted, interruptible
from agentic_evals.runner.observe import Teller
from agentic_evals.runner.plan import CasePlan, CasePlanner, TrialSettings
from agentic_evals.runner.polling import ExitPolling
from agentic_evals.runner.reaper import Identity, enable_subreaper, runner_children
from agentic_evals.runner.trials import (
    TrialCommand,
    execute_trial,
    judging_can_wait,
    run_trial,
    trial_command,
)
from agentic_evals.runner.verdict import UnjudgedTrial

if TYPE_CHECKING:
    from agentic_evals.contract.models import Fixture
    from agentic_evals.runner.case_run import CaseRun

__all__ = ["run_serial"]


def run_serial(
    fixture: Fixture, runs: list[CaseRun], settings: TrialSettings, tell: Teller
) -> int | None:
    """Run every trial of ``runs`` one after another; return the stopping signal, if any.

    On SIGINT or SIGTERM the trial in flight is killed and dropped, and the
    rest are not started (:func:`~agentic_evals.runner.schedule.run_cases`).
    """
    waiting = _Unjudged(tell)
    order = _SerialOrder(fixture, runs, settings)
    try:
        with interruptible():
            # Trials never overlap, so whatever the runner did not have before is theirs.
            before = runner_children() if enable_subreaper() else None
            for step in order:
                position, run = step.placed
                if step.plan is None:
                    tell.kept(position, run.case.name, run.trials)
                    continue
                tell.started(position, step.number)
                _serial_trial(step, settings, before, waiting, order)
            waiting.judge()
    except Interrupted as stop:
        waiting.judge()  # it had finished before the signal came
        return stop.signum
    finally:
        waiting.drop()
        order.polling.close()
    return None


def _serial_trial(
    step: _Step,
    settings: TrialSettings,
    before: set[Identity] | None,
    waiting: _Unjudged,
    order: _SerialOrder,
) -> None:
    """Run one trial of a serial run; judge the previous one while this one starts.

    While it runs, the next trial's command is made too (``order``).
    """
    plan, number = step.plan, step.number
    assert plan is not None
    if not judging_can_wait(plan):
        waiting.judge()
        position, run = step.placed
        run.add(run_trial(plan, number, settings, preexisting=before))
        waiting.tell.added(position, run.case.name, run.trials, number)
        return

    def meanwhile() -> None:
        waiting.judge()
        order.prepare()

    trial = execute_trial(
        plan,
        number,
        settings,
        preexisting=before,
        on_started=meanwhile,
        command=order.command(plan, number),
        poll_seconds=order.polling.budget(),
    )
    process = trial.process
    order.polling.ended(process.lasted if process is not None and process.started else None)
    waiting.judge()  # this trial could not start: the last one still waits
    waiting.hold(step.placed, trial)


@dataclass(frozen=True)
class _Step:
    """One step of a serial run: a trial to run, or a case whose trials were all kept."""

    placed: tuple[int, CaseRun]
    """The case's position in the run, with its run."""
    plan: CasePlan | None
    """None for a case whose trials were all kept (nothing to run)."""
    number: int = 0


class _SerialOrder:
    """The steps of a serial run in order, with the next trial's command made ahead.

    :meth:`prepare` (called while a trial runs) plans the next step's case if
    it is a new one and makes the next trial's command
    (:func:`~agentic_evals.runner.trials.trial_command`); the trial takes it
    with :meth:`command`. Between one trial's end and the next one's spawn the
    runner then makes only the view, the containment and the spawn.
    """

    def __init__(self, fixture: Fixture, runs: list[CaseRun], settings: TrialSettings) -> None:
        self._settings = settings
        self._steps = self._walk(fixture, runs, CasePlanner(settings))
        self._next: _Step | None = None
        self._looked = False
        self._made: TrialCommand | None = None
        self.polling = ExitPolling.here()
        """How long the next trial polls for its exit."""

    @staticmethod
    def _walk(fixture: Fixture, runs: list[CaseRun], planner: CasePlanner) -> Iterator[_Step]:
        for position, run in enumerate(runs):
            numbers = run.to_run(fixture.trials)
            if not numbers:
                yield _Step((position, run), None)
                continue
            plan = planner.plan(run.case, run.case_id(fixture))
            for number in numbers:
                yield _Step((position, run), plan, number)

    def _peek(self) -> _Step | None:
        if not self._looked:
            self._next, self._looked = next(self._steps, None), True
        return self._next

    def __iter__(self) -> Iterator[_Step]:
        while (step := self._peek()) is not None:
            self._looked = False
            yield step

    def prepare(self) -> None:
        """Make the command of the next trial, when it is one :func:`execute_trial` runs.

        Those have no workspace, so their command needs no view; a trial judged at
        once (:func:`run_trial`) makes its own.
        """
        step = self._peek()
        if step is not None and step.plan is not None and judging_can_wait(step.plan):
            self._made = trial_command(step.plan, step.number, self._settings)

    def command(self, plan: CasePlan, number: int) -> TrialCommand | None:
        """The command made ahead for trial ``number`` of ``plan``, if it was."""
        made, self._made = self._made, None
        if made is not None and made.plan is plan and made.number == number:
            return made
        return None


class _Unjudged:
    """The last trial of a serial run: finished, and judged once the next one runs.

    Judging costs the runner about a tenth of a bare spawn per trial (measured
    in place: 295 us against 397 us over a trial of ``true``); done while the
    next trial's program loads on another core, it no longer adds to the run.
    Trials run one after another all the same, and each trial's orphans were
    found and killed before the next one started.
    """

    def __init__(self, tell: Teller) -> None:
        self._held: tuple[tuple[int, CaseRun], UnjudgedTrial] | None = None
        self.tell = tell
        """Hears of each trial once it is judged."""

    def hold(self, placed: tuple[int, CaseRun], trial: UnjudgedTrial) -> None:
        """Keep ``trial`` of the run ``placed`` (its position, the run) until :meth:`judge`."""
        self._held = (placed, trial)

    def judge(self) -> None:
        """Judge the trial held, if any, and add it to its case's trials."""
        if self._held is None:
            return
        (position, run), trial = self._held
        judged = trial.judge()  # interrupted here, it is still held and judged again
        self._held = None
        run.add(judged)
        trial.close()
        self.tell.added(position, run.case.name, run.trials, trial.number)

    def drop(self) -> None:
        """Release a trial that was never judged (the run failed)."""
        if self._held is not None:
            self._held[1].close()
            self._held = None
