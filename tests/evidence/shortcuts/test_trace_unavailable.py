"""Without a tracer, live cases are BLOCKED (TRACE_UNAVAILABLE), never qualified on their text."""

from __future__ import annotations

from pathlib import Path

import pytest
from shortcut_helpers import live, live_case, run_skill

from agentic_evals import codes
from agentic_evals.reports.text import render_summary
from agentic_evals.runner.trace_files import TRACER_VAR


def test_without_a_tracer_the_live_case_is_blocked_and_not_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRACER_VAR, "none")
    report = run_skill(tmp_path, {}, live_case(["bash", "../honest.sh"]))
    case = live(report)
    assert case.outcome == "BLOCKED"
    assert codes.TRACE_UNAVAILABLE in case.evidence_disqualifiers
    assert (case.live_qualified, case.effective_evidence_class) == (False, "deterministic")
    assert report.readiness != "READY"
    lines = render_summary(report).splitlines()
    assert "tracing: 2 unavailable (live and real-world trials)" in lines
    warning = next(line for line in lines if line.startswith("warning: no tracer"))
    assert f"({TRACER_VAR}=none)" in warning and "live" in warning and "BLOCKED" in warning


@pytest.mark.parametrize("tracer", ["auto", "strace"])
def test_the_report_names_the_tracer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    report = run_skill(tmp_path, {}, live_case(["bash", "../honest.sh"]))
    case = live(report)
    trace = case.trials[0].file_trace
    assert trace is not None and trace.method in ("fanotify", "strace")
    if tracer == "strace":
        assert trace.method == "strace"
    assert (case.outcome, case.live_qualified) == ("PASS", True)
    assert (
        f"tracing: 2 {trace.method} (live and real-world trials)"
        in render_summary(report).splitlines()
    )
