"""``agentic-evals report``: render a JSON report in another format; nothing is re-run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from agentic_evals.cli._exit import emit, refuse
from agentic_evals.exitcodes import ExitCode
from agentic_evals.reports.render import REPORT_FORMATS

if TYPE_CHECKING:
    from agentic_evals.reports.render import ReportFormat


@click.command(
    "report",
    epilog=(
        "Example: agentic-evals report report.json --format junit -o junit.xml\n\n"
        "Exit codes: 0 rendered, 2 the report cannot be read or the output written."
    ),
)
@click.argument("report", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(REPORT_FORMATS),
    required=True,
    help="markdown (PR comments), html (one self-contained page), junit (CI test views), "
    "github (workflow annotations), sarif (code scanning).",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write here instead of stdout."
)
def report(report: Path, fmt: ReportFormat, output: Path | None) -> None:
    """Render REPORT (an agentic_evals.report.v2 JSON file) as FORMAT, from the report alone."""
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.judge.merge import MergeError, read_report
    from agentic_evals.reports.render import render

    target = output or Path("-")
    check_outputs("report", [target], [report])
    try:
        loaded = read_report(report).report
    except MergeError as error:
        refuse("report", error)
    emit(ExitCode.OK, "", texts=[(target, render(loaded, fmt))])
