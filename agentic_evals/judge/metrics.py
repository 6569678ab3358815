"""Aggregate figures over a run (SPEC section 10). Pure.

Only executed trials count: ``NOT_TESTED`` trials (an interrupted run) are
neither passes nor failures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

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


def is_hallucinated_success(problems: Sequence[Problem]) -> bool:
    """Return whether the exit code and output oracles passed while a readback failed.

    That is: no problem from the ``exit_code`` or ``output`` oracles, and at
    least one from a ``readback`` oracle (artifacts, workspace changes).
    """
    claimed = not problems_in_group(problems, "exit_code") and not problems_in_group(
        problems, "output"
    )
    return claimed and bool(problems_in_group(problems, "readback"))


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
