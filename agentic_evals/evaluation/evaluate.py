"""Evaluate a loaded fixture: run every selected case's trials and judge them.

This is the library entry point behind ``agentic-evals run``. It never
raises for what the evaluated commands do: missing programs, timeouts,
stray processes and failed oracles all become evidence in the report.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from agentic_evals import clock
from agentic_evals.contract.layout import FixtureLayout, fixture_layout
from agentic_evals.contract.load import LoadResult
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import DEFAULT_RUN_TIER, QualificationTier
from agentic_evals.evaluation.resume import plan_resume
from agentic_evals.evaluation.resume_source import ResumeRequest, Selection, resumed_selection
from agentic_evals.judge.isolation import summarize
from agentic_evals.judge.report import build_report
from agentic_evals.judge.shard import Shard, hide_shard_variables, select
from agentic_evals.reports.model import Report
from agentic_evals.runner.case_run import CaseRun
from agentic_evals.runner.confinement import confined
from agentic_evals.runner.environment import base_environment, private_environment
from agentic_evals.runner.observe import RunObserver
from agentic_evals.runner.plan import TrialSettings
from agentic_evals.runner.process import enable_subreaper
from agentic_evals.runner.schedule import run_cases
from agentic_evals.runner.stub_copies import StubCopyFinder
from agentic_evals.runner.trace_files import traced_case

DEFAULT_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class RunOptions:
    """How to run a fixture."""

    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    """Per-trial timeout for cases that set none."""
    focus: tuple[str, ...] = ()
    """Run only these cases (a focused run); empty runs all."""
    shard: Shard | None = None
    """Run only this shard's cases (``--shard K/N``); None runs all. Excludes ``focus``."""
    grace_seconds: float = 1.0
    """Time between SIGTERM and SIGKILL when a trial is stopped."""
    stream_cap: int = 64 * 2**20
    """Bytes kept per output stream; the rest is counted, not kept."""
    environ: dict[str, str] | None = field(default=None)
    """The runner environment to start from (default: this process's)."""
    jobs: int = 1
    """Trials run at once; 1 runs them one after another."""
    tier: QualificationTier = DEFAULT_RUN_TIER
    """The qualification tier of the environment the run happens in (SPEC section 6)."""
    require_system_test: bool = False
    """Block required cases that must reach ``system_test`` and did not (MISSING_SYSTEM_TEST)."""
    keep_workspaces: bool = False
    """Keep every trial's workspace copy (or its view's upper layer); each trial's report
    names its path."""
    observer: RunObserver | None = None
    """Told of every trial and finished case as the run goes (progress output)."""
    resume: ResumeRequest | None = None
    """Keep the finished trials of this earlier report and run only what it lacks
    (``run --resume``); its selection of cases is the run's."""


class Evaluation(NamedTuple):
    """The report, and the signal that interrupted the run, if any."""

    report: Report
    interrupted_by: int | None


class UnknownCaseError(ValueError):
    """A focused run named a case the fixture does not have."""


def select_cases(
    fixture: Fixture, focus: tuple[str, ...], shard: Shard | None = None
) -> list[tuple[int, Case]]:
    """Return ``(index, case)`` for the cases to run, in fixture order.

    A shard selects round-robin by fixture position (see ``agentic_evals.judge.shard``);
    a focused run selects by name. The two exclude each other.
    """
    if focus and shard is not None:
        raise ValueError("a focused run cannot be sharded")
    if not focus:
        return select(fixture.cases, shard)
    names = {case.name for case in fixture.cases}
    unknown = [name for name in focus if name not in names]
    if unknown:
        raise UnknownCaseError(", ".join(unknown))
    wanted = set(focus)
    return [(i, case) for i, case in enumerate(fixture.cases) if case.name in wanted]


def _raw_case(document: Any, index: int) -> dict[str, Any]:
    case = document["cases"][index]
    assert isinstance(case, dict)
    return case


def evaluate(loaded: LoadResult, options: RunOptions | None = None) -> Evaluation:
    """Run the selected cases of a valid fixture and build the report."""
    options = options or RunOptions()
    fixture = loaded.model
    if fixture is None:
        raise ValueError("evaluate() needs a fixture that loaded without errors")
    focus, shard = options.focus, options.shard
    if options.resume is not None:
        focus, shard = resumed_selection(options.resume, Selection(focus, shard))
    selected = select_cases(fixture, focus, shard)
    environ = os.environ if options.environ is None else options.environ
    enable_subreaper()
    layout = fixture_layout(loaded.path.resolve(), fixture.skill_root)
    run_id = clock.new_run_id()
    started = clock.monotonic()
    runs = [CaseRun(index, case, _raw_case(loaded.document, index), []) for index, case in selected]
    resumed = None if options.resume is None else plan_resume(loaded, runs, options.resume)
    with confined(fixture, layout.base, layout.skill_tree, run_id, environ) as confinement:
        settings = TrialSettings(
            run_id=run_id,
            layout=layout,
            base_env=base_environment(hide_shard_variables(environ), private_environment()),
            default_timeout=options.timeout_seconds,
            grace_seconds=options.grace_seconds,
            stream_cap=options.stream_cap,
            workspace=fixture.workspace,
            keep_workspaces=options.keep_workspaces,
            isolation=confinement.isolation,
            containment=confinement.containment,
            stub_copies=_stub_copy_finder(layout, fixture, selected, environ),
        )
        try:
            interrupted_by = run_cases(
                fixture, runs, settings, options.jobs, options.observer, confinement
            )
        finally:
            if settings.stub_copies is not None:
                settings.stub_copies.close()
    report = build_report(
        loaded,
        runs,
        run_id=settings.run_id,
        duration_ms=round((clock.monotonic() - started) * 1000),
        focused=list(focus) or None,
        interrupted_by=interrupted_by,
        tier=options.tier,
        require_system_test=options.require_system_test,
        shard=shard,
    )
    trials = (trial.isolation for case in report.cases for trial in case.trials)
    notes, leftovers = confinement.notes_for_report(), confinement.containment.leftovers
    update = {
        "isolation": summarize(trials, notes, leftovers),
        "resumed_from": resumed,
    }
    return Evaluation(report.model_copy(update=update), interrupted_by)


def _stub_copy_finder(
    layout: FixtureLayout,
    fixture: Fixture,
    selected: list[tuple[int, Case]],
    environ: Mapping[str, str],
) -> StubCopyFinder | None:
    """The run's finder of stub copies, when a selected case is traced (else no cost at all)."""
    if not any(traced_case(case) for _, case in selected):
        return None
    return StubCopyFinder(layout, fixture.cases, environ, clock.utc_now().timestamp())
