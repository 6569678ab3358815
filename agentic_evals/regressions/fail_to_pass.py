"""Did the guard catch the bug and pass without it? Pure: two case reports in, a verdict out.

A structural proof is judged by the retained case's own reports, as ``run``
built them: nothing printed by a proof counts.

- On the broken tree the case must FAIL, and **every** trial must FAIL with
  a problem that shows the record's ``failure_code``: the problem's code, or
  its oracle pointer when the code is a pointer (``/expected/artifacts/2``
  also matches problems below it, ``/expected/artifacts/2/...``). Every
  ``expected_markers`` entry must appear in the text of some problem. A guard
  that PASSes there does not catch the bug: the regression is unprotected
  (``GUARD_NOT_CAUGHT``); failing otherwise is ``GUARD_OTHER_FAILURE``.
- On the current tree it must PASS (``GUARD_FAILS_NOW`` otherwise, which
  comes first: a guard that fails everywhere proves nothing about the bug).
"""

from __future__ import annotations

from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.results import Verdict
from agentic_evals.reports.model import CaseReport, Problem, TrialReport


class FailToPass(NamedTuple):
    """The verdict on a structural proof's two runs."""

    verdict: Verdict
    reason_code: str | None
    fail_before_fix_verified: bool
    pass_after_fix_verified: bool
    unprotected: bool
    """The guard PASSed on the broken tree: it does not catch the bug."""
    detail: str


def shows(problem: Problem, failure_code: str) -> bool:
    """``problem`` shows ``failure_code``: its code, or its oracle at or below the pointer."""
    if failure_code.startswith("/"):
        oracle = problem.oracle or ""
        return oracle == failure_code or oracle.startswith(failure_code + "/")
    return problem.code == failure_code


def _caught(trial: TrialReport, failure_code: str) -> bool:
    return trial.outcome == "FAIL" and any(shows(p, failure_code) for p in trial.problems)


def _seen(problems: list[Problem]) -> str:
    seen = dict.fromkeys(f"{p.code} at {p.oracle}" if p.oracle else p.code for p in problems)
    return ", ".join(seen) or "no problem"


def judge_fail_to_pass(record: Regression, broken: CaseReport, current: CaseReport) -> FailToPass:
    """Judge a structural proof from the retained case's reports on the two trees."""
    code = record.failure_code or ""
    name = record.retained_case
    passes_now = current.outcome == "PASS"
    trials = broken.trials
    caught = sum(_caught(trial, code) for trial in trials)
    markers = record.fail_before_fix.expected_markers if record.fail_before_fix else []
    text = [f"{p.code} {p.oracle or ''} {p.message}" for p in broken.problems]
    missing = [marker for marker in markers if not any(marker in line for line in text)]
    fails_for_reason = (
        broken.outcome == "FAIL" and bool(trials) and caught == len(trials) and not missing
    )
    if broken.outcome == "PASS":
        detail = (
            f"{name} PASSes on the broken tree: the guard does not catch the bug, "
            "the regression is unprotected"
        )
        return FailToPass("unproven", codes.REG_GUARD_NOT_CAUGHT, False, passes_now, True, detail)
    if not passes_now:
        detail = (
            f"{name} does not PASS on the current tree ({current.outcome}: "
            f"{_seen(current.problems)}): a guard that fails without the bug proves nothing"
        )
        return FailToPass(
            "unproven", codes.REG_GUARD_FAILS_NOW, fails_for_reason, False, False, detail
        )
    if not fails_for_reason:
        why = f"{caught} of {len(trials)} trials failed showing failure_code {code!r}"
        if missing:
            why += "; problems lack markers " + ", ".join(repr(m) for m in missing)
        detail = (
            f"{name} is {broken.outcome} on the broken tree, but not for the record's reason: "
            f"{why} (seen: {_seen(broken.problems)})"
        )
        return FailToPass("unproven", codes.REG_GUARD_OTHER_FAILURE, False, True, False, detail)
    detail = (
        f"{name} FAILs on the broken tree with {code!r} in all {len(trials)} trials and "
        "PASSes on the current tree"
    )
    return FailToPass("verified", None, True, True, False, detail)
