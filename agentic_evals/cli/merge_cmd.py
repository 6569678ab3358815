"""``agentic-evals merge``: combine shard reports into one report; exit by readiness."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import emit, refuse, summary_stream, verdict_code


@click.command(
    "merge",
    epilog=(
        "Example: agentic-evals merge report-1.json report-2.json report-3.json -o report.json\n\n"
        "Exit codes: 0 READY (or any readiness with --report-only), 1 not READY, "
        "2 reports that cannot be merged or bad usage, 3 internal error."
    ),
)
@click.argument("reports", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(path_type=Path),
    help="Write the merged JSON report here ('-': stdout).",
)
@click.option("--report-only", is_flag=True, help="Exit 0 whatever the readiness.")
def merge(reports: tuple[Path, ...], output: Path, report_only: bool) -> None:
    """Merge the reports of the shards of one fixture (run --shard K/N) into one report.

    The merged report's readiness, cases (in fixture order) and metrics are
    those of one full run. Every shard 1..N must be given exactly once.
    """
    from agentic_evals.judge.merge import MergeError, merge_report_files
    from agentic_evals.reports.text import render_summary, use_colour

    try:
        merged = merge_report_files(reports)
    except MergeError as error:
        refuse("merge", f"{error}; nothing was written")
    code = verdict_code(not_ready=merged.readiness != "READY", report_only=report_only)
    colour = use_colour(summary_stream(output))
    summary = render_summary(merged, colour=colour, exit_code=int(code), report_path=str(output))
    emit(code, summary, output=output, document=merged, colour=colour)
