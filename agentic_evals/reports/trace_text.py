"""The summary lines about file tracing (see docs/tracing.md), derived from the trial records."""

from __future__ import annotations

from collections import Counter

from agentic_evals.reports.model import Report


def tracing_lines(report: Report) -> list[str]:
    """Which tracer traced the live and real-world trials, and what could not be qualified."""
    methods: Counter[str] = Counter()
    untraced: dict[str, str] = {}
    for case in report.cases:
        for trial in case.trials:
            trace = trial.file_trace
            if trace is None:
                continue
            methods[trace.method] += 1
            if trace.method == "unavailable":
                untraced.setdefault(case.name, trace.reason or "no tracer")
    if not methods:
        return []
    shown = ", ".join(f"{count} {method}" for method, count in sorted(methods.items()))
    lines = [f"tracing: {shown} (live and real-world trials)"]
    if untraced:
        names = ", ".join(untraced)
        reason = next(iter(untraced.values()))
        lines.append(
            f"warning: no tracer ({reason}): the live or real-world case(s) {names} could not be "
            "qualified (what they ran, opened and wrote is unknown) and are BLOCKED; "
            "install strace, or run as root where trials get an overlay view"
        )
    return lines
