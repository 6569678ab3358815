"""``agentic-evals merge``: combine shard reports into one report; exit by readiness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from agentic_evals.cli._exit import finish
from agentic_evals.cli._report_out import (
    ReportOutputs,
    check_outputs,
    emit,
    report_options,
    verbosity,
)
from agentic_evals.cli._settings import no_config_option, resolve
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
    type=click.Path(path_type=Path),
    help="Write the merged JSON report here ('-': stdout); required unless configured.",
)
@click.option("--report-only", is_flag=True, help="Exit 0 whatever the readiness.")
@report_options
@no_config_option
@click.pass_context
def merge(ctx: click.Context, /, reports: tuple[Path, ...], **flags: Any) -> None:
    """Merge the reports of the shards of one fixture (run --shard K/N) into one report.

    The merged report's readiness, cases (in fixture order) and metrics are
    those of one full run. Every shard 1..N must be given exactly once.
    """
    from agentic_evals.reports.merge import MergeError, merge_report_files

    names = ("output", "junit_xml", "html", "markdown", "color")
    options, configuration = resolve(
        ctx, {k: flags[k] for k in names}, no_config=flags["no_config"]
    )
    if options["output"] is None:
        raise click.UsageError("Missing option '-o' / '--output' (or output in the configuration).")
    paths = [None if options[k] is None else Path(options[k]) for k in names[:4]]
    outputs = ReportOutputs(*paths)
    check_outputs([path for _, path in outputs.files()], list(reports))
    try:
        merged = merge_report_files(reports)
    except MergeError as error:
        click.echo(f"agentic-evals merge: {error}; nothing was written", err=True)
        finish(ExitCode.INVALID)
    merged = merged.model_copy(update={"configuration": configuration})
    ready = merged.readiness == "READY" or flags["report_only"]
    code = ExitCode.OK if ready else ExitCode.NOT_READY
    level = verbosity(flags["quiet"], flags["verbose"])
    emit(merged, int(code), outputs, verbosity=level, colour_choice=options["color"])
    finish(code)
