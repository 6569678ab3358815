"""``agentic-evals report``: render a JSON report in another format; nothing is re-run."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.exitcodes import ExitCode


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
    type=click.Choice(["markdown", "html", "junit", "github", "sarif"]),
    required=True,
    help="markdown (PR comments), html (one self-contained page), junit (CI test views), "
    "github (workflow annotations), sarif (code scanning).",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write here instead of stdout."
)
def report(report: Path, fmt: str, output: Path | None) -> None:
    """Render REPORT (an agentic_evals.report.v2 JSON file) as FORMAT, from the report alone."""
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.reports.json_out import write_text_atomic
    from agentic_evals.reports.merge import MergeError, read_report
    from agentic_evals.reports.render import render

    target = output or Path("-")
    check_outputs([target], [report])
    try:
        loaded = read_report(report).report
    except MergeError as error:
        click.echo(f"agentic-evals report: {error}", err=True)
        finish(ExitCode.INVALID)
    write_text_atomic(target, render(loaded, fmt))  # type: ignore[arg-type]
    finish(ExitCode.OK)
