"""Scheduling trials: one after another, or several at once.

Parallel trials (``--jobs N``) give the same report as a serial run: every
trial keeps its number, trials are stored by (case, number) and read back in
fixture order, and escaped descendants are attributed by the trial markers
in their environment, never by timing.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING

from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.interrupt import Interrupted, interruptible
from agentic_evals.runner.observe import RunObserver
from agentic_evals.runner.reaper import enable_subreaper, runner_children
from agentic_evals.runner.trials import (
    CasePlan,
    CasePlanner,
    TrialRun,
    TrialSettings,
    UnjudgedTrial,
    execute_trial,
    judging_can_wait,
    run_trial,
)

if TYPE_CHECKING:
    from agentic_evals.contract.models import Fixture
    from agentic_evals.reports.build import CaseRun

Slot = tuple[int, int]
"""A trial's place: (position of its case in the run, trial number from 1)."""


def run_cases(
    fixture: Fixture,
    runs: list[CaseRun],
    settings: TrialSettings,
    jobs: int = 1,
    observer: RunObserver | None = None,
) -> int | None:
    """Run every trial of ``runs``; return the signal that stopped the run, if any.

    On SIGINT or SIGTERM the trials in flight are killed and dropped, the rest
    are not started, and cases left with fewer trials than the fixture asks are
    reported NOT_TESTED. ``observer`` hears of every trial and finished case.
    """
    tell = _Teller(observer, fixture.trials)
    if jobs <= 1:
        return _serial(fixture, runs, settings, tell)
    return _parallel(fixture, runs, settings, jobs, tell)


class _Teller:
    """Tells the observer, if there is one; a case is finished when all its trials ran."""

    def __init__(self, observer: RunObserver | None, trials: int) -> None:
        self._observer = observer
        self._trials = trials

    def started(self, position: int, number: int) -> None:
        if self._observer is not None:
            self._observer.trial_started(position, number)

    def added(self, position: int, run: CaseRun, number: int) -> None:
        """Trial ``number`` of ``run`` is in ``run.trials`` (or, in parallel, done)."""
        if self._observer is None:
            return
        self._observer.trial_finished(position, number)
        if len(run.trials) == self._trials:
            self._observer.case_finished(position, run)


def _serial(
    fixture: Fixture, runs: list[CaseRun], settings: TrialSettings, tell: _Teller
) -> int | None:
    waiting = _Unjudged(tell)
    try:
        with interruptible():
            # Trials never overlap, so whatever the runner did not have before is theirs.
            before = runner_children() if enable_subreaper() else None
            planner = CasePlanner(settings)
            for position, run in enumerate(runs):
                plan = planner.plan(run.case, run.case_id(fixture))
                can_wait = judging_can_wait(plan)
                for number in range(1, fixture.trials + 1):
                    if not can_wait:
                        waiting.judge()
                        tell.started(position, number)
                        run.trials.append(run_trial(plan, number, settings, preexisting=before))
                        tell.added(position, run, number)
                        continue
                    tell.started(position, number)
                    trial = execute_trial(
                        plan, number, settings, preexisting=before, on_started=waiting.judge
                    )
                    waiting.judge()  # this trial could not start: the last one still waits
                    waiting.hold(position, run, trial)
            waiting.judge()
    except Interrupted as stop:
        waiting.judge()  # it had finished before the signal came
        return stop.signum
    finally:
        waiting.drop()
    return None


class _Unjudged:
    """The last trial of a serial run: finished, and judged once the next one runs.

    Judging costs the runner tens of microseconds per trial; done while the
    next trial's program loads on another core, it no longer adds to the run.
    Trials run one after another all the same, and each trial's orphans were
    found and killed before the next one started.
    """

    def __init__(self, tell: _Teller) -> None:
        self._held: tuple[int, CaseRun, UnjudgedTrial] | None = None
        self._tell = tell

    def hold(self, position: int, run: CaseRun, trial: UnjudgedTrial) -> None:
        """Keep ``trial`` of ``run`` (at ``position``) until :meth:`judge`."""
        self._held = (position, run, trial)

    def judge(self) -> None:
        """Judge the trial held, if any, and add it to its case's trials."""
        if self._held is None:
            return
        position, run, trial = self._held
        judged = trial.judge()  # interrupted here, it is still held and judged again
        self._held = None
        run.trials.append(judged)
        trial.close()
        self._tell.added(position, run, trial.number)

    def drop(self) -> None:
        """Release a trial that was never judged (the run failed)."""
        if self._held is not None:
            self._held[2].close()
            self._held = None


def _parallel(
    fixture: Fixture, runs: list[CaseRun], settings: TrialSettings, jobs: int, tell: _Teller
) -> int | None:
    done: dict[Slot, TrialRun] = {}
    signum: int | None = None
    cancel = Cancellation()
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="agentic-evals-trial")
    try:
        with interruptible():
            futures = _submit(pool, fixture, runs, settings, cancel, tell)
            try:
                for future in as_completed(futures):
                    slot = futures[future]
                    done[slot] = future.result()
                    _tell_done(tell, runs, done, slot, fixture.trials)
            except Interrupted as stop:
                # Further signals are ignored from here on: the first one decides.
                signum = stop.signum
                cancel.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
                done.update(_finished(futures))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        cancel.close()
    for position, run in enumerate(runs):
        slots = [(position, n) for n in range(1, fixture.trials + 1)]
        run.trials = [done[slot] for slot in slots if slot in done]
    return signum


def _tell_done(
    tell: _Teller, runs: list[CaseRun], done: dict[Slot, TrialRun], slot: Slot, trials: int
) -> None:
    """A parallel trial finished: once its case's trials are all done, they are its trials."""
    position, number = slot
    run = runs[position]
    slots = [(position, n) for n in range(1, trials + 1)]
    if all(s in done for s in slots):
        run.trials = [done[s] for s in slots]
    tell.added(position, run, number)


def _started(
    tell: _Teller, position: int, plan: CasePlan, number: int, settings: TrialSettings,
    cancel: Cancellation,
) -> TrialRun:  # fmt: skip
    tell.started(position, number)
    return run_trial(plan, number, settings, cancel)


def _submit(
    pool: ThreadPoolExecutor,
    fixture: Fixture,
    runs: list[CaseRun],
    settings: TrialSettings,
    cancel: Cancellation,
    tell: _Teller,
) -> dict[Future[TrialRun], Slot]:
    futures: dict[Future[TrialRun], Slot] = {}
    planner = CasePlanner(settings)
    for position, run in enumerate(runs):
        plan = planner.plan(run.case, run.case_id(fixture))
        for number in range(1, fixture.trials + 1):
            future = pool.submit(_started, tell, position, plan, number, settings, cancel)
            futures[future] = (position, number)
    return futures


def _finished(futures: dict[Future[TrialRun], Slot]) -> dict[Slot, TrialRun]:
    """Trials that completed before the run was stopped."""
    return {
        slot: future.result()
        for future, slot in futures.items()
        if future.done() and not future.cancelled() and future.exception() is None
    }
