"""Run metrics: Wilson interval, pass^k, flaky cases, hallucinated success."""

from __future__ import annotations

import pytest
from builders import case_report, trial_report

from agentic_evals import codes
from agentic_evals.judge.metrics import (
    build_metrics,
    is_hallucinated_success,
    pass_hat_k,
    wilson_interval,
)
from agentic_evals.reports.model import CaseReport, Problem, StreamStats, TrialReport

EXIT = Problem(code=codes.EXIT_CODE, message="m", oracle="/expected/exit_code")
OUT = Problem(code=codes.STDOUT_MISSING, message="m", oracle="/expected/stdout_contains/0")
ART = Problem(code=codes.ARTIFACT_MISMATCH, message="m", oracle="/expected/artifacts/1")
WS = Problem(code=codes.WORKSPACE_CHANGE_MISSING, message="m", oracle="/expected/workspace_changes")
TIMEOUT = Problem(code=codes.TIMEOUT, message="m")
EXEC = Problem(code=codes.EXEC_FAILED, message="m")
ORPHAN = Problem(code=codes.ORPHAN_PROCESS, message="m")
# The author's broken references: not the program's result.
REFERENCE = Problem(
    code=codes.ARTIFACT_MISSING, message="m", oracle="/expected/artifacts/0/equals_artifact"
)
BAD_REGEX = Problem(
    code=codes.ARTIFACT_REGEX, message="m", oracle="/expected/artifacts/0/content_regex"
)
UNSAFE = Problem(code=codes.ARTIFACT_UNSAFE_PATH, message="m", oracle="/expected/artifacts/0")
UNREADABLE = Problem(code=codes.ARTIFACT_UNREADABLE, message="m", oracle="/expected/artifacts/0")


@pytest.mark.parametrize(
    ("passed", "total", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_known_values(passed: int, total: int, low: float, high: float) -> None:
    interval = wilson_interval(passed, total)
    assert interval.passed == passed
    assert interval.total == total
    assert interval.rate == passed / total
    assert interval.wilson_low is not None
    assert interval.wilson_high is not None
    assert round(interval.wilson_low, 4) == low
    assert round(interval.wilson_high, 4) == high


def test_wilson_bounds_stay_in_unit_interval() -> None:
    for total in range(1, 60):
        for passed in (0, total):
            interval = wilson_interval(passed, total)
            assert 0.0 <= (interval.wilson_low or 0) <= (interval.wilson_high or 0) <= 1.0


def test_wilson_without_attempts_is_none() -> None:
    interval = wilson_interval(0, 0)
    assert (interval.rate, interval.wilson_low, interval.wilson_high) == (None, None, None)
    assert interval.total == 0


@pytest.mark.parametrize(
    ("passed", "n", "k", "value"),
    [
        (3, 3, 3, 1.0),
        (2, 3, 3, 0.0),
        (4, 5, 3, 0.4),
        (5, 5, 1, 1.0),
        (3, 5, 1, 0.6),
        (2, 2, 3, None),
        (0, 0, 3, None),
        (1, 1, 0, None),
    ],
)
def test_pass_hat_k(passed: int, n: int, k: int, value: float | None) -> None:
    assert pass_hat_k(passed, n, k) == value


@pytest.mark.parametrize(
    ("problems", "hallucinated"),
    [
        ([ART], True),
        ([WS], True),
        ([ORPHAN, ART], True),
        ([REFERENCE, ART], True),
        # A trial that never ended on its own claimed nothing.
        ([TIMEOUT, ART], False),
        ([EXEC, ART], False),
        ([REFERENCE], False),
        ([BAD_REGEX], False),
        ([UNSAFE], False),
        ([UNREADABLE], False),
        ([EXIT, ART], False),
        ([OUT, ART], False),
        ([EXIT], False),
        ([], False),
    ],
)
def test_hallucinated_success(problems: list[Problem], hallucinated: bool) -> None:
    assert is_hallucinated_success(problems) is hallucinated


def test_build_metrics_from_facts() -> None:
    cases = [
        case_report(
            "good",
            flaky=False,
            trials=[trial_report("s::good#1", "PASS"), trial_report("s::good#2", "PASS")],
        ),
        case_report(
            "liar",
            flaky=True,
            trials=[trial_report("s::liar#1", "PASS"), trial_report("s::liar#2", "FAIL", [ART])],
        ),
        case_report(
            "bad",
            flaky=False,
            trials=[
                trial_report("s::bad#1", "FAIL", [EXIT, ART]),
                trial_report("s::bad#2", "NOT_TESTED"),
            ],
        ),
        case_report("skipped", flaky=False, trials=[]),
    ]
    metrics = build_metrics(cases, trials_per_case=2)
    assert (metrics.trial_pass_rate.passed, metrics.trial_pass_rate.total) == (3, 5)
    assert metrics.trial_pass_rate.rate == 0.6
    assert {name: hat.value for name, hat in metrics.pass_hat_k.items()} == {
        "good": 1.0,
        "liar": 0.0,
        "bad": None,
        "skipped": None,
    }
    assert all(hat.k == 2 for hat in metrics.pass_hat_k.values())
    assert metrics.flaky_cases == ["liar"]
    assert metrics.hallucinated_success.count == 1
    assert metrics.hallucinated_success.trial_ids == ["s::liar#2"]


def test_build_metrics_accepts_case_reports() -> None:
    stats = StreamStats(total_bytes=0, kept_bytes=0, truncated=False)
    trial = TrialReport(
        trial_id="s::c#1",
        outcome="FAIL",
        problems=[ART],
        exit_code=0,
        timed_out=False,
        duration_ms=1,
        stdout="",
        stderr="",
        truncated=False,
        stdout_stats=stats,
        stderr_stats=stats,
        orphan_pids_after_teardown=[],
        artifact_hashes={},
    )
    report = CaseReport(
        case_id="s::c",
        name="c",
        type="positive",
        required=True,
        outcome="FAIL",
        flaky=False,
        problems=[ART],
        argv=["x"],
        declared_evidence_class="deterministic",
        effective_evidence_class="deterministic",
        live_qualified=False,
        evidence_disqualifiers=[],
        supports_claims=[],
        seams=[],
        test_source_sha256="0",
        oracle_sha256="0",
        passed_trials=0,
        total_trials=1,
        pass_rate=0.0,
        trials=[trial],
    )
    metrics = build_metrics([report], trials_per_case=1)
    assert metrics.pass_hat_k["c"].value == 0.0
    assert metrics.hallucinated_success.trial_ids == ["s::c#1"]
    assert metrics.trial_pass_rate.wilson_high is not None


def test_empty_run() -> None:
    metrics = build_metrics([], trials_per_case=3)
    assert metrics.trial_pass_rate.rate is None
    assert metrics.pass_hat_k == {}
    assert metrics.flaky_cases == []
    assert metrics.hallucinated_success.count == 0
