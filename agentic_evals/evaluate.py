"""Evaluate a loaded fixture: run every selected case's trials and judge them.

This is the library entry point behind ``agentic-evals run``. It never
raises for what the evaluated commands do: missing programs, timeouts,
stray processes and failed oracles all become evidence in the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from agentic_evals import clock
from agentic_evals.contract.commands import skill_root
from agentic_evals.contract.load import LoadResult
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.reports.build import CaseRun, build_report
from agentic_evals.reports.model import Report
from agentic_evals.runner.environment import base_environment
from agentic_evals.runner.interrupt import Interrupted, interruptible
from agentic_evals.runner.process import enable_subreaper
from agentic_evals.runner.trials import TrialRun, TrialSettings, run_trial

DEFAULT_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class RunOptions:
    """How to run a fixture."""

    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    """Per-trial timeout for cases that set none."""
    focus: tuple[str, ...] = ()
    """Run only these cases (a focused run); empty runs all."""
    grace_seconds: float = 1.0
    """Time between SIGTERM and SIGKILL when a trial is stopped."""
    stream_cap: int = 64 * 2**20
    """Bytes kept per output stream; the rest is counted, not kept."""
    environ: dict[str, str] | None = field(default=None)
    """The runner environment to start from (default: this process's)."""


class Evaluation(NamedTuple):
    """The report, and the signal that interrupted the run, if any."""

    report: Report
    interrupted_by: int | None


class UnknownCaseError(ValueError):
    """A focused run named a case the fixture does not have."""


def select_cases(fixture: Fixture, focus: tuple[str, ...]) -> list[tuple[int, Case]]:
    """Return ``(index, case)`` for the cases to run, in fixture order."""
    if not focus:
        return list(enumerate(fixture.cases))
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
    fixture = loaded.fixture
    if fixture is None:
        raise ValueError("evaluate() needs a fixture that loaded without errors")
    selected = select_cases(fixture, options.focus)
    enable_subreaper()
    fixture_dir = loaded.path.resolve().parent
    settings = TrialSettings(
        run_id=clock.new_run_id(),
        fixture_dir=fixture_dir,
        boundary=skill_root(fixture_dir),
        base_env=base_environment(options.environ),
        default_timeout=options.timeout_seconds,
        grace_seconds=options.grace_seconds,
        stream_cap=options.stream_cap,
    )
    started = clock.monotonic()
    runs = [CaseRun(index, case, _raw_case(loaded.document, index), []) for index, case in selected]
    interrupted_by = _run_all(fixture, runs, settings)
    report = build_report(
        loaded,
        runs,
        run_id=settings.run_id,
        duration_ms=round((clock.monotonic() - started) * 1000),
        focused=list(options.focus) or None,
        interrupted_by=interrupted_by,
    )
    return Evaluation(report, interrupted_by)


def _run_all(fixture: Fixture, runs: list[CaseRun], settings: TrialSettings) -> int | None:
    """Run every trial in order; on a signal, stop and leave the rest unfinished."""
    try:
        with interruptible():
            for run in runs:
                for number in range(1, fixture.trials + 1):
                    trial: TrialRun = run_trial(run.case, run.case_id(fixture), number, settings)
                    run.trials.append(trial)
                run.finished = True
    except Interrupted as stop:
        return stop.signum
    return None
