"""Scheduling trials: one after another, or several at once.

Parallel trials (``--jobs N``) give the same report as a serial run, by
construction: every trial keeps its number, trials are stored by (case,
number) and read back in fixture order; trials run side by side only when
they cannot see each other's files (each in its own private view), while a
trial on the shared tree (``isolation: none``) runs alone, after every trial
before it and before every trial after it; and escaped descendants are
attributed by the trial's cgroup or private namespace, never by timing or by
an environment a process can clear; where neither exists, it runs serially.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

from agentic_evals.reports.model import TrialReport
from agentic_evals.runner.cancel import Cancellation
from agentic_evals.runner.case_run import CaseRun
from agentic_evals.runner.interrupt import Interrupted, interruptible
from agentic_evals.runner.observe import RunObserver, Teller
from agentic_evals.runner.plan import CasePlan, CasePlanner, TrialSettings
from agentic_evals.runner.reaper import Identity, enable_subreaper, runner_children
from agentic_evals.runner.serial import run_serial
from agentic_evals.runner.trials import run_trial

if TYPE_CHECKING:
    from agentic_evals.contract.models import Fixture
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
    observer: RunObserver | None = None,
    confinement: Confinement | None = None,
) -> int | None:
    """Run every trial of ``runs``; return the signal that stopped the run, if any.

    On SIGINT or SIGTERM the trials in flight are killed and dropped, the rest
    are not started, and cases left with fewer trials than the fixture asks are
    reported NOT_TESTED. ``observer`` hears of every trial and finished case.
    ``confinement`` (the run's isolation and containment) says whether
    parallel trials can be told apart; where they cannot, they run serially.
    """
    if jobs > 1 and confinement is not None and not confinement.certain_attribution():
        confinement.notes.append(
            f"--jobs {jobs} ran serially: without cgroups or private namespaces, a process "
            "that leaves its trial's tree and clears its environment could be missed"
        )
        jobs = 1
    tell = Teller(observer, fixture.trials)
    if jobs <= 1:
        return run_serial(fixture, runs, settings, tell)
    return _parallel(fixture, runs, settings, jobs, tell)


def _parallel(
    fixture: Fixture, runs: list[CaseRun], settings: TrialSettings, jobs: int, tell: Teller
) -> int | None:
    signum: int | None = None
    cancel = Cancellation()
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="agentic-evals-trial")
    trials = _Submitted(runs, tell, fixture.trials)
    try:
        with interruptible():
            try:
                _submit(pool, fixture, runs, settings, cancel, trials, jobs)
                trials.wait(0)
            except Interrupted as stop:
                # Further signals are ignored from here on: the first one decides.
                signum = stop.signum
                cancel.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
                trials.done.update(_finished(trials.futures))
    except Interrupted as stop:
        signum = stop.signum  # held before the run: no trial was started
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        cancel.close()
    for (position, _), trial in sorted(trials.done.items()):
        runs[position].add(trial)
    return signum


class _Submitted:
    """The trials of a parallel run: submitted, running, and done by slot."""

    def __init__(self, runs: list[CaseRun], tell: Teller, trials: int) -> None:
        self.futures: dict[Future[TrialReport], Slot] = {}
        self.done: dict[Slot, TrialReport] = {}
        self._pending: set[Future[TrialReport]] = set()
        self._runs, self._trials = runs, trials
        self.tell = tell
        """Hears of each trial as it starts and ends."""

    def add(self, future: Future[TrialReport], slot: Slot) -> None:
        """A trial was submitted for ``slot``."""
        self.futures[future] = slot
        self._pending.add(future)

    def wait(self, most: int) -> None:
        """Collect finished trials until at most ``most`` are still pending."""
        while len(self._pending) > most:
            finished = wait(self._pending, return_when=FIRST_COMPLETED).done
            self._pending -= finished
            for future in finished:
                position, number = slot = self.futures[future]
                self.done[slot] = future.result()
                self._tell_done(position, number)

    def _tell_done(self, position: int, number: int) -> None:
        """A trial ended; its case is finished once its kept and run trials are all there."""
        ran = [
            self.done[(position, n)]
            for n in range(1, self._trials + 1)
            if (position, n) in self.done
        ]
        run = self._runs[position]
        ended = sorted([*run.trials, *ran], key=lambda trial: trial.number)
        self.tell.added(position, run.case.name, ended, number)


def _started(
    tell: Teller, position: int, plan: CasePlan, number: int, settings: TrialSettings,
    cancel: Cancellation, before: set[Identity] | None,
) -> TrialReport:  # fmt: skip
    tell.started(position, number)
    return run_trial(plan, number, settings, cancel, before)


def _submit(
    pool: ThreadPoolExecutor,
    fixture: Fixture,
    runs: list[CaseRun],
    settings: TrialSettings,
    cancel: Cancellation,
    trials: _Submitted,
    jobs: int,
) -> None:
    """Submit the trials in serial order, at most a few per worker ahead.

    A trial on the shared tree waits for every trial submitted before it and
    runs alone (its orphans attributed as in a serial run); the trials after
    it wait for it.
    """
    planner = CasePlanner(settings)
    for position, run in enumerate(runs):
        numbers = run.to_run(fixture.trials)
        if not numbers:
            trials.tell.kept(position, run.case.name, run.trials)
            continue
        plan = planner.plan(run.case, run.case_id(fixture))
        alone = settings.isolation is not None and settings.isolation.exclusive(run.case)
        for number in numbers:
            trials.wait(0 if alone else jobs * _AHEAD_PER_JOB - 1)
            before = runner_children() if alone and enable_subreaper() else None
            args = (trials.tell, position, plan, number, settings, cancel, before)
            future = pool.submit(_started, *args)
            trials.add(future, (position, number))
            if alone:
                trials.wait(0)


def _finished(futures: dict[Future[TrialReport], Slot]) -> dict[Slot, TrialReport]:
    """Trials that completed before the run was stopped."""
    return {
        slot: future.result()
        for future, slot in futures.items()
        if future.done() and not future.cancelled() and future.exception() is None
    }
