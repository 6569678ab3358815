"""``agentic-evals merge``: combine shard reports into one report; exit by readiness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from agentic_evals.cli._exit import refuse, verdict_code
from agentic_evals.cli._history_options import record_options, record_report
from agentic_evals.cli._report_out import (
    ReportOutputs,
    check_outputs,
    finish_report,
    report_options,
    verbosity,
    write_outputs,
)
from agentic_evals.cli._settings import no_config_option, resolve

_CONFIGURABLE = ("output", "junit_xml", "html", "markdown", "color")


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
@click.option(
    "--fixture",
    type=click.Path(path_type=Path),
    help="Also check that every report names this fixture's bytes and cases (with their "
    "hashes): a report made up for another fixture is rejected.",
)
@report_options
@no_config_option
@record_options
@click.pass_context
def merge(ctx: click.Context, /, reports: tuple[Path, ...], **flags: Any) -> None:
    """Merge the reports of the shards of one fixture (run --shard K/N) into one report.

    The merged report's readiness, cases (in fixture order) and metrics are
    those of one full run. Every shard 1..N must be given exactly once.
    """
    from agentic_evals.judge.merge import MergeError, merge_report_files

    options, configuration = resolve(
        ctx, {k: flags[k] for k in _CONFIGURABLE}, no_config=flags["no_config"]
    )
    if options["output"] is None:
        raise click.UsageError("Missing option '-o' / '--output' (or output in the configuration).")
    outputs = ReportOutputs.of(options)
    check_outputs("merge", [path for _, path in outputs.files()], list(reports))
    try:
        merged = merge_report_files(reports, flags["fixture"])
    except MergeError as error:
        refuse("merge", f"{error}; nothing was written")
    merged = merged.model_copy(update={"configuration": configuration})
    code = verdict_code(not_ready=merged.readiness != "READY", report_only=flags["report_only"])
    write_outputs(merged, outputs)
    record_report(merged, flags["history_url"], flags["no_history"])
    level = verbosity(flags["quiet"], flags["verbose"])
    finish_report(merged, code, outputs, verbosity=level, colour_choice=options["color"])
