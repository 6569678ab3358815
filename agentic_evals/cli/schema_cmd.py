"""``agentic-evals schema``: print one of the JSON Schemas."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.cli.schemas import SCHEMAS
from agentic_evals.exitcodes import ExitCode


@click.command("schema", epilog="Example: agentic-evals schema fixture -o fixture.schema.json")
@click.argument("kind", type=click.Choice(list(SCHEMAS)))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write here instead of stdout."
)
def schema(kind: str, output: Path | None) -> None:
    """Print the JSON Schema (draft 2020-12) of a document agentic-evals reads or writes."""
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.cli.schemas import spec
    from agentic_evals.reports.json_out import dump_value, write_text_atomic

    check_outputs("schema", [output])
    write_text_atomic(output or Path("-"), dump_value(spec(kind).build()))
    finish(ExitCode.OK)
