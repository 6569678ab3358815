"""Scheduling trials: one after another, or several at once.

Parallel trials (``--jobs N``) give the same report as a serial run, by
construction: every trial keeps its number, trials are stored by (case,
number) and read back in fixture order; trials run side by side only when
they cannot see each other's files (each in its own private view), while a
trial on the shared tree (``isolation: none``) runs alone, after every trial
before it and before every trial after it; and escaped descendants are
attributed by the trial's cgroup or private namespace, never by timing or
by an environment a process can clear. Where neither exists, a parallel run
runs serially, and the summary says so.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.interrupt import Interrupted, interruptible
from agentic_evals.runner.reaper import enable_subreaper, runner_children
from agentic_evals.runner.trials import (
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
    from agentic_evals.runner.confinement import Confinement

Slot = tuple[int, int]
"""A trial's place: (position of its case in the run, trial number from 1)."""

_AHEAD_PER_JOB = 2
"""Trials submitted per worker ahead of the ones running (not all of them up front)."""


def run_cases(
    fixture: Fixture,
    runs: list[CaseRun],
    settings: TrialSettings,
    jobs: int = 1,
    confinement: Confinement | None = None,
) -> int | None:
    """Run every trial of ``runs``; return the signal that stopped the run, if any.

    On SIGINT or SIGTERM the trials in flight are killed and dropped, the rest
    are not started, and cases left with fewer trials than the fixture asks are
    reported NOT_TESTED.
    """
    if jobs > 1 and confinement is not None and not confinement.certain_attribution():
        confinement.notes.append(
            f"--jobs {jobs} ran serially: without cgroups or private namespaces, a process "
            "that leaves its trial's tree and clears its environment could be missed"
        )
        jobs = 1
    if jobs <= 1:
        return _serial(fixture, runs, settings)
    return _parallel(fixture, runs, settings, jobs)


def _serial(fixture: Fixture, runs: list[CaseRun], settings: TrialSettings) -> int | None:
    waiting = _Unjudged()
    try:
        with interruptible():
            # Trials never overlap, so whatever the runner did not have before is theirs.
            before = runner_children() if enable_subreaper() else None
            planner = CasePlanner(settings)
            for run in runs:
                plan = planner.plan(run.case, run.case_id(fixture))
                can_wait = judging_can_wait(plan)
                for number in range(1, fixture.trials + 1):
                    if not can_wait:
                        waiting.judge()
                        run.trials.append(run_trial(plan, number, settings, preexisting=before))
                        continue
                    trial = execute_trial(
                        plan, number, settings, preexisting=before, on_started=waiting.judge
                    )
                    waiting.judge()  # this trial could not start: the last one still waits
                    waiting.hold(run, trial)
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

    def __init__(self) -> None:
        self._held: tuple[CaseRun, UnjudgedTrial] | None = None

    def hold(self, run: CaseRun, trial: UnjudgedTrial) -> None:
        """Keep ``trial`` of ``run`` until :meth:`judge`."""
        self._held = (run, trial)

    def judge(self) -> None:
        """Judge the trial held, if any, and add it to its case's trials."""
        if self._held is None:
            return
        run, trial = self._held
        judged = trial.judge()  # interrupted here, it is still held and judged again
        self._held = None
        run.trials.append(judged)
        trial.close()

    def drop(self) -> None:
        """Release a trial that was never judged (the run failed)."""
        if self._held is not None:
            self._held[1].close()
            self._held = None


def _parallel(
    fixture: Fixture, runs: list[CaseRun], settings: TrialSettings, jobs: int
) -> int | None:
    done: dict[Slot, TrialRun] = {}
    signum: int | None = None
    cancel = Cancellation()
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="agentic-evals-trial")
    futures: dict[Future[TrialRun], Slot] = {}
    try:
        with interruptible():
            try:
                _submit(pool, fixture, runs, settings, cancel, futures, done, jobs)
                _collect(futures, done, wait(futures).done)
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


def _submit(
    pool: ThreadPoolExecutor,
    fixture: Fixture,
    runs: list[CaseRun],
    settings: TrialSettings,
    cancel: Cancellation,
    futures: dict[Future[TrialRun], Slot],
    done: dict[Slot, TrialRun],
    jobs: int,
) -> None:
    """Submit the trials in serial order, at most a few per worker ahead.

    A trial on the shared tree waits for every trial submitted before it and
    runs alone (its orphans attributed as in a serial run); the trials after
    it wait for it.
    """
    planner = CasePlanner(settings)
    pending: set[Future[TrialRun]] = set()
    for position, run in enumerate(runs):
        plan = planner.plan(run.case, run.case_id(fixture))
        alone = settings.isolation is not None and settings.isolation.exclusive(run.case)
        for number in range(1, fixture.trials + 1):
            if alone and pending:
                _collect(futures, done, wait(pending).done)
                pending.clear()
            while len(pending) >= jobs * _AHEAD_PER_JOB:
                finished = wait(pending, return_when=FIRST_COMPLETED).done
                _collect(futures, done, finished)
                pending -= finished
            before = runner_children() if alone and enable_subreaper() else None
            future = pool.submit(run_trial, plan, number, settings, cancel, before)
            futures[future] = (position, number)
            pending.add(future)
            if alone:
                _collect(futures, done, wait(pending).done)
                pending.clear()


def _collect(
    futures: dict[Future[TrialRun], Slot],
    done: dict[Slot, TrialRun],
    finished: set[Future[TrialRun]],
) -> None:
    for future in finished:
        done[futures[future]] = future.result()


def _finished(futures: dict[Future[TrialRun], Slot]) -> dict[Slot, TrialRun]:
    """Trials that completed before the run was stopped."""
    return {
        slot: future.result()
        for future, slot in futures.items()
        if future.done() and not future.cancelled() and future.exception() is None
    }
