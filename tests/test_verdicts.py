"""Trial, case and readiness verdicts (SPEC 3.6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals import codes
from agentic_evals.contract.models import Case
from agentic_evals.judge.cases import (
    READINESS_ORDER,
    CaseResult,
    case_outcome,
    case_problems,
    case_readiness,
    trial_outcome,
    worse,
)
from agentic_evals.oracles.base import OracleResult
from agentic_evals.reports.model import CaseOutcome, Problem, Readiness


@dataclass(frozen=True)
class Stream:
    data: bytes = b""
    total_bytes: int = 0
    kept_bytes: int = 0
    truncated: bool = False

    def contains(self, needle: bytes) -> bool:
        return needle in self.data

    def excerpt(self, limit_chars: int = 10_000) -> str:
        return self.data.decode(errors="replace")[:limit_chars]


@dataclass(frozen=True)
class Outcome:
    exit_code: int | None = 0
    term_signal: int | None = None
    timed_out: bool = False
    start_error: str | None = None
    duration_ms: int = 1500
    stdout: Stream = field(default_factory=Stream)
    stderr: Stream = field(default_factory=Stream)
    orphan_pids: tuple[int, ...] = ()


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
        exit_code=None, timed_out=True, orphan_pids=(41, 42), stdout=Stream(b"RATE LIMITED")
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
    outcome = Outcome(orphan_pids=(1234, 5678), stderr=Stream(b"RATE LIMITED"))
    verdict, problems = trial_outcome(MARKERS, outcome, OracleResult())
    assert verdict == "FAIL"
    assert codes_of(problems) == [codes.ORPHAN_PROCESS, codes.BLOCKED_MARKER]
    assert "1234, 5678" in problems[0].message


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_blocked_marker_in_either_stream_blocks_even_failing_oracles(stream: str) -> None:
    outcome = Outcome(**{stream: Stream(b"...RATE LIMITED...")})  # type: ignore[arg-type]
    verdict, problems = trial_outcome(MARKERS, outcome, failing())
    assert verdict == "BLOCKED"
    assert codes_of(problems) == [codes.BLOCKED_MARKER, codes.EXIT_CODE]
    assert problems[0].message == f"blocked marker 'RATE LIMITED' seen in {stream}"


def test_oracle_problems_fail() -> None:
    verdict, problems = trial_outcome(MARKERS, Outcome(stdout=Stream(b"fine")), failing())
    assert verdict == "FAIL"
    assert problems == [ORACLE_FAIL]


def test_infra_marker_turns_failure_into_infra_blocked() -> None:
    outcome = Outcome(stderr=Stream(b"curl: ECONNRESET"))
    verdict, problems = trial_outcome(MARKERS, outcome, failing())
    assert verdict == "INFRA_BLOCKED"
    assert codes_of(problems) == [codes.EXIT_CODE, codes.INFRA_BLOCKED]
    assert "'ECONNRESET' seen in stderr" in problems[1].message


def test_infra_marker_without_failure_is_a_pass() -> None:
    outcome = Outcome(stdout=Stream(b"ECONNRESET, retried"))
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
    assert trial_outcome(markers, Outcome(stdout=Stream(b"x")), failing())[0] == "FAIL"


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
        ([CaseResult(False, "PASS", 3)], "NOT_ESTABLISHED"),
        ([CaseResult(True, "NOT_TESTED")], "NOT_ESTABLISHED"),
        ([CaseResult(True, "PASS", 3), CaseResult(True, "PASS", 3)], "READY"),
        ([CaseResult(True, "PASS", 3), CaseResult(False, "FAIL", 0)], "READY"),
        ([CaseResult(True, "PASS", 3), CaseResult(True, "BLOCKED", 0)], "USABLE_WITH_GAPS"),
        ([CaseResult(True, "PASS", 3), CaseResult(True, "NOT_TESTED", 0)], "USABLE_WITH_GAPS"),
        ([CaseResult(True, "FAIL", 1)], "USABLE_WITH_GAPS"),
        ([CaseResult(True, "FAIL", 0), CaseResult(True, "BLOCKED", 0)], "NOT_READY"),
        ([CaseResult(True, "BLOCKED", 0)], "NOT_READY"),
        ([CaseResult(True, "FAIL", 0), CaseResult(False, "PASS", 3)], "NOT_READY"),
    ],
)
def test_case_readiness(cases: list[CaseResult], expected: Readiness) -> None:
    assert case_readiness(cases) == expected


OUTCOMES: list[CaseOutcome] = ["PASS", "FAIL", "BLOCKED", "NOT_TESTED"]
case_results = st.builds(
    CaseResult,
    required=st.booleans(),
    outcome=st.sampled_from(OUTCOMES),
    passed_trials=st.integers(min_value=0, max_value=5),
)


@given(st.lists(case_results, max_size=8))
def test_ready_iff_every_required_case_passes(cases: list[CaseResult]) -> None:
    required = [c for c in cases if c.required]
    every_pass = bool(required) and all(c.outcome == "PASS" for c in required)
    assert (case_readiness(cases) == "READY") == every_pass


@given(st.lists(case_results, max_size=8), st.lists(case_results, max_size=4))
def test_optional_cases_never_change_readiness(
    cases: list[CaseResult], extra: list[CaseResult]
) -> None:
    optional = [c._replace(required=False) for c in extra]
    assert case_readiness(cases + optional) == case_readiness(cases)


@given(st.lists(case_results, min_size=1, max_size=8))
def test_a_required_blocked_case_never_allows_ready(cases: list[CaseResult]) -> None:
    blocked = CaseResult(True, "BLOCKED", 3)
    assert case_readiness([*cases, blocked]) != "READY"


def test_worse_order() -> None:
    assert READINESS_ORDER == ("READY", "USABLE_WITH_GAPS", "NOT_ESTABLISHED", "NOT_READY")
    assert worse("READY", "USABLE_WITH_GAPS") == "USABLE_WITH_GAPS"
    assert worse("NOT_ESTABLISHED", "USABLE_WITH_GAPS") == "NOT_ESTABLISHED"
    assert worse("NOT_ESTABLISHED", "NOT_READY") == "NOT_READY"
    assert worse("NOT_READY", "READY") == "NOT_READY"
    assert worse("READY", "READY") == "READY"


@given(st.sampled_from(READINESS_ORDER), st.sampled_from(READINESS_ORDER))
def test_worse_is_symmetric_and_picks_an_argument(a: Readiness, b: Readiness) -> None:
    assert worse(a, b) == worse(b, a) in (a, b)
