"""``verify --guard``: run the retained case now; it must PASS (the fix holds).

The retained fixture is loaded as a focused run loads it (gates off) and only
the retained case runs, over the fixture's trials, with the runner's usual
process handling. Fail before the fix (the proof), pass after it (this).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.load import read_fixture
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.protection import retained_fixture_path
from agentic_evals.regressions.results import GuardResult


class GuardRun(NamedTuple):
    """The guard's result, and the signal that interrupted it, if any."""

    result: GuardResult
    interrupted_by: int | None


def run_guard(
    record: Regression,
    registry_dir: Path,
    *,
    timeout: float,
    environ: Mapping[str, str] | None = None,
) -> GuardRun:
    """Run ``record``'s retained case from its retained fixture and judge it."""
    from agentic_evals.evaluation.evaluate import RunOptions, UnknownCaseError, evaluate

    name, fixture = record.retained_case, record.retained_fixture
    path = retained_fixture_path(record, registry_dir)
    if not path.is_file():
        return _not_run(f"retained fixture {fixture} does not exist")
    loaded = read_fixture(path)
    if loaded.model is None:
        first = loaded.errors[0].render() if loaded.errors else "no detail"
        return _not_run(f"retained fixture {fixture} does not load: {first}")
    options = RunOptions(
        focus=(name,),
        timeout_seconds=timeout,
        environ=None if environ is None else dict(environ),
    )
    try:
        evaluation = evaluate(loaded, options)
    except UnknownCaseError:
        return _not_run(f"retained case {name!r} is not in {fixture}")
    case = evaluation.report.cases[0]
    passed = case.outcome == "PASS"
    if passed:
        detail = f"{name} PASS ({case.passed_trials}/{case.total_trials} trials)"
    else:
        problems = "; ".join(f"{p.code}: {p.message}" for p in case.problems) or "no problem"
        detail = f"{name} {case.outcome}: {problems}"
    result = GuardResult(passed=passed, outcome=case.outcome, detail=detail)
    return GuardRun(result, evaluation.interrupted_by)


def _not_run(detail: str) -> GuardRun:
    return GuardRun(GuardResult(passed=False, outcome=None, detail=detail), None)
