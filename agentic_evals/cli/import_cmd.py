"""``agentic-evals import eee``: Every Eval Ever envelopes from other tools, as imported results."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import emit, refuse, verdict_code
from agentic_evals.cli._history_options import history_url_option


@click.group("import", epilog="Example: agentic-evals import eee envelopes/")
def import_group() -> None:
    """Read results other systems wrote into the history."""


@import_group.command(
    "eee",
    epilog=(
        "Example: agentic-evals import eee envelopes/ other-run.eee.json -o import.json\n\n"
        "Exit codes: 0 imported or skipped, 1 a conflict (another measurement under a stored "
        "evaluation_id; nothing stored for it), 2 a file that is not an Every Eval Ever "
        "0.2.2 envelope, an unusable history or bad usage."
    ),
)
@click.argument(
    "paths", nargs=-1, required=True, metavar="FILE|DIR...", type=click.Path(path_type=Path)
)
@history_url_option
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the JSON receipt here ('-': stdout).",
)
def eee(paths: tuple[Path, ...], history_url: str | None, output: Path | None) -> None:
    """Store envelopes (files, and every *.json file of a folder) as imported results.

    Deduplicated by evaluation_id: the same measurement again is skipped, another
    one is a conflict. An envelope this tool exported from a run in this history is
    that run, not an imported result. Imported results are never exported again.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.history.access import open_history
    from agentic_evals.history.errors import HistoryError
    from agentic_evals.interchange.imports import import_envelopes
    from agentic_evals.interchange.render import render_import

    if output is not None:
        check_outputs("import eee", [output], paths)
    try:
        with open_history(history_url) as store:
            receipt = import_envelopes(store, paths)
    except HistoryError as error:
        refuse("import eee", error)
    code = verdict_code(not_ready=bool(receipt.conflicts), invalid=bool(receipt.rejected))
    emit(code, render_import(receipt), output=output, document=receipt)
