from __future__ import annotations

from typing import Any

import pytest

from agentic_evals import codes
from agentic_evals.oracles import registry, streams
from agentic_evals.oracles.base import OracleContext


@pytest.mark.parametrize(
    ("stream", "code"), [("stdout", codes.STDOUT_MISSING), ("stderr", codes.STDERR_MISSING)]
)
def test_contains_reports_each_missing_needle_with_its_pointer(
    make_case: Any, make_outcome: Any, ctx: OracleContext, stream: str, code: str
) -> None:
    case = make_case({f"{stream}_contains": ["hello", "absent", "world"]})
    outcome = make_outcome(**{stream: b"hello world\n"})
    result = streams.contains_oracle(stream)(case.expected, outcome, ctx)  # type: ignore[arg-type]
    [problem] = result.problems
    assert problem.code == code
    assert problem.oracle == f"/expected/{stream}_contains/1"
    assert problem.message == f'{stream} does not contain "absent"'


def test_contains_looks_only_at_its_own_stream(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    case = make_case({"stdout_contains": ["only-on-stderr"]})
    result = streams.contains_oracle("stdout")(
        case.expected, make_outcome(stderr=b"only-on-stderr"), ctx
    )
    assert [p.code for p in result.problems] == [codes.STDOUT_MISSING]


def test_needles_are_utf8_matched_on_raw_bytes(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    # Invalid UTF-8 around the needle must not hide it.
    raw = b"\xff\xfe caf\xc3\xa9 \x80"
    case = make_case({"stdout_contains": ["café"], "stdout_excludes": ["\ufffd"]})
    outcome = make_outcome(stdout=raw)
    assert streams.contains_oracle("stdout")(case.expected, outcome, ctx).problems == []
    # The replacement character only exists in decoded text, never in the raw bytes.
    assert streams.excludes_oracle("stdout")(case.expected, outcome, ctx).problems == []


def test_contains_on_truncated_stream_mentions_truncation(
    make_case: Any, make_outcome: Any, make_stream: Any, ctx: OracleContext
) -> None:
    case = make_case({"stdout_contains": ["late"]})
    outcome = make_outcome(stdout=make_stream(b"early", 100))
    [problem] = streams.contains_oracle("stdout")(case.expected, outcome, ctx).problems
    assert problem.code == codes.STDOUT_MISSING
    assert "truncated: 5 of 100 bytes kept" in problem.message


@pytest.mark.parametrize(
    ("stream", "code"), [("stdout", codes.STDOUT_FORBIDDEN), ("stderr", codes.STDERR_FORBIDDEN)]
)
def test_excludes_fails_when_needle_present(
    make_case: Any, make_outcome: Any, ctx: OracleContext, stream: str, code: str
) -> None:
    case = make_case({f"{stream}_excludes": ["fine", "Traceback"]})
    outcome = make_outcome(**{stream: b"Traceback (most recent call last)"})
    [problem] = streams.excludes_oracle(stream)(case.expected, outcome, ctx).problems  # type: ignore[arg-type]
    assert problem.code == code
    assert problem.oracle == f"/expected/{stream}_excludes/1"
    assert problem.message == f'{stream} contains forbidden "Traceback"'


def test_excludes_fails_closed_on_truncated_stream(
    make_case: Any, make_outcome: Any, make_stream: Any, ctx: OracleContext
) -> None:
    case = make_case({"stderr_excludes": ["secret leak"]})
    outcome = make_outcome(stderr=make_stream(b"all good so far", 1_000))
    [problem] = streams.excludes_oracle("stderr")(case.expected, outcome, ctx).problems
    assert problem.code == codes.STREAM_TRUNCATED
    assert problem.oracle == "/expected/stderr_excludes/0"
    assert "15 of 1000 bytes kept" in problem.message


def test_excludes_on_truncated_stream_still_reports_a_found_needle(
    make_case: Any, make_outcome: Any, make_stream: Any, ctx: OracleContext
) -> None:
    case = make_case({"stdout_excludes": ["ERROR"]})
    outcome = make_outcome(stdout=make_stream(b"ERROR early", 1_000))
    [problem] = streams.excludes_oracle("stdout")(case.expected, outcome, ctx).problems
    assert problem.code == codes.STDOUT_FORBIDDEN


def test_excludes_passes_on_complete_clean_stream(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    case = make_case({"stdout_excludes": ["ERROR"]})
    assert (
        streams.excludes_oracle("stdout")(case.expected, make_outcome(stdout=b"ok"), ctx).problems
        == []
    )


def test_long_needles_are_shortened_in_messages(
    make_case: Any, make_outcome: Any, ctx: OracleContext
) -> None:
    needle = "x" * 1_000
    case = make_case({"stdout_contains": [needle]})
    [problem] = registry.evaluate(case, make_outcome(), ctx).problems
    assert len(problem.message) < 300
    assert problem.message.endswith("…")
