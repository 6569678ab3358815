"""Trial, case and readiness verdicts (SPEC 3.6)."""

from __future__ import annotations

from typing import Any

import pytest
from builders import FakeProcess as Outcome
from builders import FakeStream, case_report
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.judge.cases import case_outcome, case_problems, case_readiness, worse
from agentic_evals.oracles.base import OracleResult
from agentic_evals.oracles.outcome import trial_outcome
from agentic_evals.reports.model import READINESS, CaseOutcome, CaseReport, Problem, Readiness


def case(**fields: Any) -> Case:
    raw = {"name": "c", "type": "positive", "command": ["x"], "expected": {"exit_code": 0}}
    return Case.model_validate({**raw, **fields})


ORACLE_FAIL = Problem(
    code=codes.EXIT_CODE, message="exit code 1, expected 0", oracle="/expected/exit_code"
)
MARKERS = case(blocked_when_stdout_contains=["RATE LIMITED"], infra_blocked_when=["ECONNRESET"])


def failing() -> OracleResult:
    return OracleResult(problems=[ORACLE_FAIL])


def codes_of(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_pass_when_nothing_is_wrong() -> None:
    assert trial_outcome(case(), Outcome(), OracleResult()) == ("PASS", [])


def test_timeout_fails_first_and_lists_everything_else() -> None:
    outcome = Outcome(
        exit_code=None, timed_out=True, orphan_pids=(41, 42), stdout=FakeStream(b"RATE LIMITED")
    )
    verdict, problems = trial_outcome(MARKERS, outcome, failing())
    assert verdict == "FAIL"
    assert codes_of(problems) == [
        codes.TIMEOUT,
        codes.ORPHAN_PROCESS,
        codes.BLOCKED_MARKER,
        codes.EXIT_CODE,
    ]
    assert problems[0].message.startswith("the command did not finish within its timeout")


def test_start_failure_fails_and_drops_oracle_problems() -> None:
    outcome = Outcome(exit_code=None, start_error="[Errno 2] No such file or directory: 'nope'")
    verdict, problems = trial_outcome(case(), outcome, failing(), extra_problems=[ORACLE_FAIL])
    assert verdict == "FAIL"
    assert codes_of(problems) == [codes.EXEC_FAILED]
    assert "No such file or directory: 'nope'" in problems[0].message


def test_orphans_fail_before_blocked_marker_and_name_the_pids() -> None:
    outcome = Outcome(orphan_pids=(1234, 5678), stderr=FakeStream(b"RATE LIMITED"))
    verdict, problems = trial_outcome(MARKERS, outcome, OracleResult())
    assert verdict == "FAIL"
    assert codes_of(problems) == [codes.ORPHAN_PROCESS, codes.BLOCKED_MARKER]
    assert "1234, 5678" in problems[0].message


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_blocked_marker_in_either_stream_blocks_even_failing_oracles(stream: str) -> None:
    outcome = Outcome(**{stream: FakeStream(b"...RATE LIMITED...")})  # type: ignore[arg-type]
    verdict, problems = trial_outcome(MARKERS, outcome, failing())
    assert verdict == "BLOCKED"
    assert codes_of(problems) == [codes.BLOCKED_MARKER, codes.EXIT_CODE]
    assert problems[0].message == f"blocked marker 'RATE LIMITED' seen in {stream}"


def test_oracle_problems_fail() -> None:
    verdict, problems = trial_outcome(MARKERS, Outcome(stdout=FakeStream(b"fine")), failing())
    assert verdict == "FAIL"
    assert problems == [ORACLE_FAIL]


def test_infra_marker_turns_failure_into_infra_blocked() -> None:
    outcome = Outcome(stderr=FakeStream(b"curl: ECONNRESET"))
    verdict, problems = trial_outcome(MARKERS, outcome, failing())
    assert verdict == "INFRA_BLOCKED"
    assert codes_of(problems) == [codes.EXIT_CODE, codes.INFRA_BLOCKED]
    assert "'ECONNRESET' seen in stderr" in problems[1].message


def test_infra_marker_without_failure_is_a_pass() -> None:
    outcome = Outcome(stdout=FakeStream(b"ECONNRESET, retried"))
    assert trial_outcome(MARKERS, outcome, OracleResult()) == ("PASS", [])


def test_extra_problems_fail_like_oracle_problems() -> None:
    missing = Problem(code=codes.NOT_EXERCISED, message="sqlite3 was never executed")
    assert trial_outcome(case(), Outcome(), None, extra_problems=[missing]) == ("FAIL", [missing])


def test_trace_unavailable_blocks() -> None:
    untraced = Problem(code=codes.TRACE_UNAVAILABLE, message="no tracer")
    verdict, problems = trial_outcome(case(), Outcome(), OracleResult(), extra_problems=[untraced])
    assert (verdict, problems) == ("BLOCKED", [untraced])


def test_empty_markers_are_ignored() -> None:
    markers = case(blocked_when_stdout_contains=[""], infra_blocked_when=[""])
    assert trial_outcome(markers, Outcome(stdout=FakeStream(b"x")), failing())[0] == "FAIL"


@pytest.mark.parametrize(
    ("trials", "expected"),
    [
        ([], ("NOT_TESTED", False)),
        (["NOT_TESTED", "NOT_TESTED"], ("NOT_TESTED", False)),
        (["PASS", "PASS", "PASS"], ("PASS", False)),
        (["PASS", "FAIL", "PASS"], ("FAIL", True)),
        (["FAIL", "FAIL"], ("FAIL", False)),
        (["FAIL", "BLOCKED"], ("FAIL", True)),
        (["PASS", "INFRA_BLOCKED", "PASS"], ("PASS", True)),
        (["INFRA_BLOCKED", "INFRA_BLOCKED"], ("BLOCKED", False)),
        (["BLOCKED", "BLOCKED"], ("BLOCKED", False)),
        (["PASS", "BLOCKED"], ("BLOCKED", True)),
        (["PASS", "INFRA_BLOCKED", "BLOCKED"], ("BLOCKED", True)),
        (["PASS", "NOT_TESTED"], ("PASS", False)),
    ],
)
def test_case_outcome(trials: list[Any], expected: tuple[str, bool]) -> None:
    assert case_outcome(trials) == expected


def test_case_problems_are_distinct_in_first_seen_order() -> None:
    a = Problem(code="A", message="a")
    b = Problem(code="B", message="b", oracle="/expected/exit_code")
    assert case_problems([[a, b], [b], [a, a]]) == [a, b]


@pytest.mark.parametrize(
    ("cases", "expected"),
    [
        ([], "NOT_ESTABLISHED"),
        ([case_report("c", "PASS", required=False, passed=3)], "NOT_ESTABLISHED"),
        ([case_report("c", "NOT_TESTED", passed=0)], "NOT_ESTABLISHED"),
        ([case_report("c", "PASS", passed=3), case_report("c", "PASS", passed=3)], "READY"),
        (
            [
                case_report("c", "PASS", passed=3),
                case_report("c", "FAIL", required=False, passed=0),
            ],
            "READY",
        ),
        (
            [case_report("c", "PASS", passed=3), case_report("c", "BLOCKED", passed=0)],
            "USABLE_WITH_GAPS",
        ),
        (
            [case_report("c", "PASS", passed=3), case_report("c", "NOT_TESTED", passed=0)],
            "USABLE_WITH_GAPS",
        ),
        ([case_report("c", "FAIL", passed=1)], "USABLE_WITH_GAPS"),
        ([case_report("c", "FAIL", passed=0), case_report("c", "BLOCKED", passed=0)], "NOT_READY"),
        ([case_report("c", "BLOCKED", passed=0)], "NOT_READY"),
        (
            [
                case_report("c", "FAIL", passed=0),
                case_report("c", "PASS", required=False, passed=3),
            ],
            "NOT_READY",
        ),
    ],
)
def test_case_readiness(cases: list[CaseReport], expected: Readiness) -> None:
    assert case_readiness(cases) == expected


OUTCOMES: list[CaseOutcome] = ["PASS", "FAIL", "BLOCKED", "NOT_TESTED"]
case_results = st.builds(
    lambda required, outcome, passed: case_report(
        "c", outcome, required=required, passed=passed, total=5
    ),
    required=st.booleans(),
    outcome=st.sampled_from(OUTCOMES),
    passed=st.integers(min_value=0, max_value=5),
)


@given(st.lists(case_results, max_size=8))
def test_ready_iff_every_required_case_passes(cases: list[CaseReport]) -> None:
    required = [c for c in cases if c.required]
    every_pass = bool(required) and all(c.outcome == "PASS" for c in required)
    assert (case_readiness(cases) == "READY") == every_pass


@given(st.lists(case_results, max_size=8), st.lists(case_results, max_size=4))
def test_optional_cases_never_change_readiness(
    cases: list[CaseReport], extra: list[CaseReport]
) -> None:
    optional = [c.model_copy(update={"required": False}) for c in extra]
    assert case_readiness(cases + optional) == case_readiness(cases)


@given(st.lists(case_results, min_size=1, max_size=8))
def test_a_required_blocked_case_never_allows_ready(cases: list[CaseReport]) -> None:
    blocked = case_report("c", "BLOCKED", passed=3)
    assert case_readiness([*cases, blocked]) != "READY"


def test_worse_order() -> None:
    assert READINESS == ("READY", "USABLE_WITH_GAPS", "NOT_ESTABLISHED", "NOT_READY")
    assert worse("READY", "USABLE_WITH_GAPS") == "USABLE_WITH_GAPS"
    assert worse("NOT_ESTABLISHED", "USABLE_WITH_GAPS") == "NOT_ESTABLISHED"
    assert worse("NOT_ESTABLISHED", "NOT_READY") == "NOT_READY"
    assert worse("NOT_READY", "READY") == "NOT_READY"
    assert worse("READY", "READY") == "READY"


@given(st.sampled_from(READINESS), st.sampled_from(READINESS))
def test_worse_is_symmetric_and_picks_an_argument(a: Readiness, b: Readiness) -> None:
    assert worse(a, b) == worse(b, a) in (a, b)
