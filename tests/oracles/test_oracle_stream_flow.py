"""Stream oracles judged on the whole stream as it flows: strings, patterns, the capture cap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, write_file

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.checks import case_checks
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.oracles.regex import compile_pattern
from agentic_evals.runner.capture import DEFAULT_STREAM_CAP, StreamSink
from agentic_evals.runner.matching import REGEX_SPAN, StreamWatch

MIB = 2**20


def watch(needles: list[bytes] = (), patterns: list[str] = ()) -> StreamWatch:  # type: ignore[assignment]
    return StreamWatch(needles, [compile_pattern(p) for p in patterns])


def feed(stream: StreamWatch, *chunks: bytes) -> StreamWatch:
    for chunk in chunks:
        stream.feed(chunk)
    stream.finish()
    return stream


def test_a_needle_split_across_chunks_is_found() -> None:
    seen = feed(watch([b"MARKER-42", b"absent"]), b"xxMARK", b"ER", b"-4", b"2yy")
    assert seen.found == {b"MARKER-42"}


def test_a_needle_far_past_the_cap_is_found_in_bounded_memory() -> None:
    sink = StreamSink(stream_cap=MIB, watch=watch([b"LATE"], [r"late line \d+"]))
    block = b"x" * MIB
    for _ in range(70):  # 70 MiB written, 1 MiB kept
        sink.write(block)
    sink.write(b"\nLATE late line 7\n")
    captured = sink.finish()
    assert captured.truncated and captured.kept_bytes == MIB
    assert captured.contains(b"LATE") and captured.saw_all(b"LATE")
    assert captured.matches(r"late line \d+")
    assert not captured.saw_all(b"not watched")  # only watched needles see the dropped bytes


@pytest.mark.parametrize(
    ("pattern", "matched"),
    [
        (r"^abc", False),  # the start of the stream only, not a window's cut
        (r"(?m)^abc", True),  # after a newline
        (r"abc$", False),  # `$` is the stream's end: more came after
        (r"tail$", True),
        (r"\bbc", False),  # the byte before the cut is seen
        (r"\d{3}-\d{3}", True),  # across the window's edges
    ],
)
def test_patterns_are_judged_with_the_context_around_each_window(
    pattern: str, matched: bool
) -> None:
    filler = b"y" * (REGEX_SPAN + 17)
    chunks = [filler, b"abc\n", b"abc ", filler, b"zabc", filler, b"123-", b"456", filler, b"tail"]
    seen = feed(watch(patterns=[pattern]), *chunks)
    assert (pattern in seen.matched) is matched


def test_a_catastrophic_pattern_on_a_mebibyte_stream_is_searched_in_linear_time() -> None:
    # A backtracking engine needs hours for this; the bounded engine reads it once.
    seen = feed(watch(patterns=[r"^(a+)+$", r"(x+x+)+y"]), b"a" * MIB + b"!", b"x" * MIB)
    assert seen.matched == set()


def run(tmp_path: Path, cases: list[dict[str, Any]], **options: Any) -> Any:
    loaded = load_fixture(
        write_file(tmp_path / "f.json", fixture(cases, eval_kind="runner_selftest"))
    )
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


PRINT_80_MIB_THEN = (
    "import sys\nw = sys.stdout.buffer.write\nblock = b'x' * 2**20\n"
    "for _ in range(80):\n    w(block)\nw(b'\\nDONE status=ok code=200\\n')\n"
)


def test_a_marker_printed_after_the_64_mib_cap_is_seen(tmp_path: Path) -> None:
    assert DEFAULT_STREAM_CAP == 64 * MIB
    loud = case(
        "loud",
        command=["python3", "-c", PRINT_80_MIB_THEN],
        expected={
            "exit_code": 0,
            "stdout_contains": ["DONE status=ok"],
            "stdout_excludes": ["status=failed"],
            "stdout_regex": [r"code=2\d\d"],
        },
    )
    report = run(tmp_path, [loud])
    trial = report.cases[0].trials[0]
    assert trial.truncated and trial.stdout_stats.total_bytes > 80 * MIB
    assert report.cases[0].outcome == "PASS", report.cases[0].problems


def test_a_forbidden_string_past_the_cap_fails_and_a_missing_pattern_too(tmp_path: Path) -> None:
    loud = case(
        "loud",
        command=["python3", "-c", PRINT_80_MIB_THEN.replace("64", "64")],
        expected={
            "exit_code": 0,
            "stdout_excludes": ["code=200"],
            "stdout_regex": [r"code=5\d\d"],
            "stderr_regex": [r"."],
        },
    )
    report = run(tmp_path, [loud], stream_cap=MIB)
    codes = [p.code for p in report.cases[0].problems]
    assert codes == ["STDOUT_FORBIDDEN", "STDOUT_REGEX", "STDERR_REGEX"]


def test_stream_patterns_are_checked_when_the_fixture_loads(tmp_path: Path) -> None:
    bad = case(
        "c", expected={"exit_code": 0, "stdout_regex": ["ok", r"(a)\1"], "stderr_regex": ["(?=x)"]}
    )
    result = load_fixture(write_file(tmp_path / "f.json", fixture([bad])), gates=False)
    assert [(f.code, f.pointer) for f in result.errors] == [
        ("AE-SCHEMA-VALUE", "/cases/0/expected/stdout_regex/1"),
        ("AE-SCHEMA-VALUE", "/cases/0/expected/stderr_regex/0"),
    ]
    assert "backreferences are not supported" in result.errors[0].message


def test_a_pattern_that_matches_empty_output_cannot_fail() -> None:
    from agentic_evals.contract.models import Case

    model = Case.model_validate(
        case(expected={"exit_code": 0, "stdout_regex": [".*", "x?", r"^ready \d+$"]})
    )
    checks = [c for c in case_checks(model) if c.oracle == "stdout_regex"]
    assert [c.can_fail for c in checks] == [False, False, True]
    assert not any(c.reads_back for c in checks)
