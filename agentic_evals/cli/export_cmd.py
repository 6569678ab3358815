"""``agentic-evals export eee``: reports and recorded runs as Every Eval Ever 0.2.2 envelopes."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import emit, refuse
from agentic_evals.cli._history_options import history_url_option
from agentic_evals.exitcodes import ExitCode


@click.group("export", epilog="Example: agentic-evals export eee report.json --org 'Example Org'")
def export() -> None:
    """Write results in formats other systems read."""


@export.command(
    "eee",
    epilog=(
        "Example: agentic-evals export eee last --org 'Example Org' -o envelopes/\n\n"
        "Exit codes: 0 written (imported results are skipped and counted), 2 a report or run "
        "that cannot be exported, an unusable history or bad usage; nothing is written then."
    ),
)
@click.argument("references", nargs=-1, metavar="[REPORT | RUN]...")
@click.option(
    "--org", required=True, help="The organisation that measured (source_organization_name)."
)
@click.option(
    "-o",
    "--output",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("."),
    show_default=True,
    help="The folder to write <skill>-<time>-<run>.eee.json and .instances.jsonl into.",
)
@click.option("--all", "every_run", is_flag=True, help="Every run recorded in the history.")
@click.option("--skill", metavar="S", help="With --all: only the runs of this skill.")
@history_url_option
def eee(
    references: tuple[str, ...],
    org: str,
    directory: Path,
    every_run: bool,
    skill: str | None,
    history_url: str | None,
) -> None:
    """One aggregate envelope and one instance JSONL per report or recorded run.

    A REPORT is a report file; a RUN is a recorded run id, a unique prefix, last or
    last~N. The envelope's evaluation_id is derived from the run id, so exporting a
    run again writes the same bytes. Results imported from other tools are never
    exported as this tool's own: they are skipped and counted.
    """
    from agentic_evals.history.errors import HistoryError
    from agentic_evals.interchange.export import ExportError, ExportRequest, export_eee
    from agentic_evals.interchange.render import render_export

    if not references and not every_run:
        raise click.UsageError("give a REPORT, a RUN, or --all")
    if not org.strip():
        raise click.BadParameter("must name an organisation", param_hint="--org")
    if skill is not None and not every_run:
        raise click.UsageError("--skill selects among --all")
    request = ExportRequest(references, org, directory, every_run, skill, history_url)
    try:
        receipt = export_eee(request)
    except (ExportError, HistoryError) as error:
        refuse("export eee", f"{error}; nothing was written")
    emit(ExitCode.OK, render_export(receipt))
