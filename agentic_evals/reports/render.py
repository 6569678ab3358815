"""Every output format of a report, by name: one pure renderer each, nothing re-run."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final, Literal, get_args

from agentic_evals.reports.model import Report

ReportFormat = Literal["markdown", "html", "junit", "github", "sarif"]
REPORT_FORMATS: Final[tuple[ReportFormat, ...]] = get_args(ReportFormat)


def fixture_lines(report: Report) -> dict[str, int]:
    """Case lines in the report's fixture, when it is still there unchanged (else none)."""
    from agentic_evals.reports.locations import case_lines

    return case_lines(Path(report.source), report.fixture_sha256)


def render(report: Report, fmt: ReportFormat, lines: Mapping[str, int] | None = None) -> str:
    """Render ``report`` as ``fmt``; ``lines`` locate cases for ``github`` and ``sarif``."""
    if fmt == "markdown":
        from agentic_evals.reports.markdown import render_markdown

        return render_markdown(report)
    if fmt == "html":
        from agentic_evals.reports.html import render_html

        return render_html(report)
    if fmt == "junit":
        from agentic_evals.reports.junit import render_junit

        return render_junit(report)
    located = fixture_lines(report) if lines is None else lines
    if fmt == "github":
        from agentic_evals.reports.github import render_github

        return render_github(report, located)
    from agentic_evals.reports.sarif import render_sarif, run_findings

    return render_sarif(run_findings(report, located), command="run")
