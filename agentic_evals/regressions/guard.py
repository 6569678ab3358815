"""Run a regression's retained case on one skill tree, through the project's run pipeline.

The retained fixture is loaded as a focused run loads it (gates off: they
judge a whole evaluation, not whether one case can run) and only the retained
case runs, with its own oracles, trials, environment and timeout and the
runner's usual process handling, exactly as ``run --case NAME`` would run it.
Its verdict and problems are read from the case report that run builds:
nothing here judges a trial.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.load import read_fixture
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.results import GuardResult
from agentic_evals.reports.model import CaseReport


class GuardRun(NamedTuple):
    """The guard's result, its case report when it ran, and the interrupting signal, if any."""

    result: GuardResult
    case: CaseReport | None
    interrupted_by: int | None


def run_guard(
    record: Regression,
    fixture_path: Path,
    tree: Path,
    *,
    timeout: float,
    environ: Mapping[str, str] | None = None,
) -> GuardRun:
    """Run ``record``'s retained case from the fixture at ``fixture_path`` in the skill ``tree``.

    ``timeout`` is the per-trial timeout of a case that sets none.
    """
    from agentic_evals.evaluation.evaluate import RunOptions, UnknownCaseError, evaluate

    name, fixture = record.retained_case, record.retained_fixture
    if not fixture_path.is_file():
        return _not_run(f"retained fixture {fixture} does not exist", tree)
    loaded = read_fixture(fixture_path)
    if loaded.model is None:
        first = loaded.errors[0].render() if loaded.errors else "no detail"
        return _not_run(f"retained fixture {fixture} does not load: {first}", tree)
    options = RunOptions(
        focus=(name,),
        timeout_seconds=timeout,
        environ=None if environ is None else dict(environ),
    )
    try:
        evaluation = evaluate(loaded, options)
    except UnknownCaseError:
        return _not_run(f"retained case {name!r} is not in {fixture}", tree)
    case = evaluation.report.cases[0]
    passed = case.outcome == "PASS"
    if passed:
        detail = f"{name} PASS ({case.passed_trials}/{case.total_trials} trials)"
    else:
        problems = "; ".join(f"{p.code}: {p.message}" for p in case.problems) or "no problem"
        detail = f"{name} {case.outcome}: {problems}"
    result = GuardResult(
        passed=passed, outcome=case.outcome, detail=detail, tree=str(tree), problems=case.problems
    )
    return GuardRun(result, case, evaluation.interrupted_by)


def _not_run(detail: str, tree: Path) -> GuardRun:
    result = GuardResult(passed=False, outcome=None, detail=detail, tree=str(tree))
    return GuardRun(result, None, None)
