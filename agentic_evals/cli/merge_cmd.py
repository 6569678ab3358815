"""``agentic-evals merge``: combine shard reports into one report; exit by readiness."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.cli._history_options import record_options, record_report
from agentic_evals.exitcodes import ExitCode


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
@record_options
def merge(
    reports: tuple[Path, ...],
    output: Path,
    report_only: bool,
    history_url: str | None,
    no_history: bool,
) -> None:
    """Merge the reports of the shards of one fixture (run --shard K/N) into one report.

    The merged report's readiness, cases (in fixture order) and metrics are
    those of one full run. Every shard 1..N must be given exactly once.
    """
    from agentic_evals.reports.json_out import write_model_atomic
    from agentic_evals.reports.merge import MergeError, merge_report_files
    from agentic_evals.reports.text import render_summary, use_colour

    try:
        merged = merge_report_files(reports)
    except MergeError as error:
        click.echo(f"agentic-evals merge: {error}; nothing was written", err=True)
        finish(ExitCode.INVALID)
    code = ExitCode.OK if merged.readiness == "READY" or report_only else ExitCode.NOT_READY
    write_model_atomic(output, merged)
    record_report(merged, history_url, no_history)
    # With the JSON on stdout ("-o -"), the summary moves to stderr.
    to_stderr = str(output) == "-"
    stream = sys.stderr if to_stderr else sys.stdout
    summary = render_summary(
        merged,
        colour=use_colour(stream),
        exit_code=int(code),
        report_path=str(output),
    )
    click.echo(summary, err=to_stderr, nl=False, color=use_colour(stream))
    finish(code)
