"""Aggregate figures over a run (SPEC section 10). Pure.

Only executed trials count: ``NOT_TESTED`` trials (an interrupted run) are
neither passes nor failures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from agentic_evals import codes
from agentic_evals.oracles.base import problems_in_group
from agentic_evals.reports.model import (
    CaseReport,
    HallucinatedSuccess,
    Interval,
    Metrics,
    PassHatK,
    Problem,
)

Z_95: Final = 1.959963984540054
"""The two-sided 95% standard normal quantile."""


def wilson_interval(passed: int, total: int, z: float = Z_95) -> Interval:
    """Return ``passed / total`` with its Wilson score interval.

    With no attempts the rate and both bounds are None. The bounds are
    clamped to [0, 1] against rounding at the extremes.
    """
    if total <= 0:
        return Interval(passed=passed, total=total, rate=None, wilson_low=None, wilson_high=None)
    rate = passed / total
    z2 = z * z
    denominator = 1 + z2 / total
    centre = (rate + z2 / (2 * total)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / total + z2 / (4 * total * total)) / denominator
    return Interval(
        passed=passed,
        total=total,
        rate=rate,
        wilson_low=max(0.0, centre - half),
        wilson_high=min(1.0, centre + half),
    )


def pass_hat_k(passed: int, n: int, k: int) -> float | None:
    """Return the unbiased estimate that ``k`` fresh trials all pass: C(passed, k) / C(n, k).

    None when fewer than ``k`` trials ran (or ``k`` is not positive).
    """
    if k <= 0 or n < k:
        return None
    return math.comb(passed, k) / math.comb(n, k)


_NOT_RUN_TO_ITS_END: Final = frozenset({codes.TIMEOUT, codes.EXEC_FAILED})
"""A trial with these problems said nothing about itself: it never ended on its own."""

CONTRADICTIONS: Final = frozenset(
    {
        codes.ARTIFACT_MISSING,
        codes.ARTIFACT_PRESENT,
        codes.ARTIFACT_TOO_SMALL,
        codes.ARTIFACT_HASH,
        codes.ARTIFACT_NOT_JSON,
        codes.ARTIFACT_POINTER,
        codes.ARTIFACT_MISMATCH,
        codes.ARTIFACT_REGEX,
        codes.ARTIFACT_EXCLUDED,
        codes.ARTIFACT_NO_MATCH,
        codes.WORKSPACE_CHANGE_MISSING,
        codes.WORKSPACE_CHANGE_UNEXPECTED,
    }
)
"""Readback problems that say the state left behind contradicts the trial's success.

Not in the set: an unsafe path, an artifact too large or unreadable for the
runner: they say nothing about what the program did.
"""


def _contradicts(problem: Problem) -> bool:
    """An independent check failed on the trial's own result, not on the author's reference.

    Problems about an ``equals_artifact`` reference or an invalid ``content_regex``
    carry the pointer of that part of the check (``/expected/artifacts/N/equals_artifact``).
    """
    if problem.code not in CONTRADICTIONS or problem.oracle is None:
        return False
    return not problem.oracle.endswith(("/equals_artifact", "/content_regex"))


def is_hallucinated_success(problems: Sequence[Problem]) -> bool:
    """Return whether the program's own checks passed while an independent check failed.

    *Own* checks are what the program says about itself: its exit code and its
    output (the ``exit_code`` and ``stdout``/``stderr`` contains/excludes
    oracles), on a trial that ran to its own end (no ``TIMEOUT``, no
    ``EXEC_FAILED``). *Independent* checks read the state the trial left
    behind (``artifacts``, ``workspace_changes``); one counts as failed only
    when its problem contradicts the result (:data:`CONTRADICTIONS`), not when
    the author's reference is broken (an ``equals_artifact`` target, an invalid
    regex, an unsafe path) or the runner could not read a file.
    """
    if any(p.code in _NOT_RUN_TO_ITS_END for p in problems):
        return False
    own = problems_in_group(problems, "exit_code") + problems_in_group(problems, "output")
    if own:
        return False
    return any(_contradicts(p) for p in problems_in_group(problems, "readback"))


def build_metrics(cases: Sequence[CaseReport], trials_per_case: int) -> Metrics:
    """Compute the run's metrics.

    Args:
        cases: Every case of the report, in order.
        trials_per_case: The fixture's ``trials``: the k of pass^k.
    """
    passed = total = 0
    hats: dict[str, PassHatK] = {}
    hallucinated: list[str] = []
    for case in cases:
        executed = [t for t in case.trials if t.outcome != "NOT_TESTED"]
        case_passed = sum(1 for t in executed if t.outcome == "PASS")
        passed += case_passed
        total += len(executed)
        hats[case.name] = PassHatK(
            k=trials_per_case, value=pass_hat_k(case_passed, len(executed), trials_per_case)
        )
        hallucinated.extend(t.trial_id for t in executed if is_hallucinated_success(t.problems))
    return Metrics(
        trial_pass_rate=wilson_interval(passed, total),
        pass_hat_k=hats,
        flaky_cases=[case.name for case in cases if case.flaky],
        hallucinated_success=HallucinatedSuccess(count=len(hallucinated), trial_ids=hallucinated),
    )
