"""Print a command's text and write its JSON document with ``-o`` (through the atomic writer)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pydantic import BaseModel


def emit(output: Path | None, document: BaseModel, text: str) -> None:
    """Write ``document`` to ``output`` (when given) and print ``text``.

    With the JSON on stdout (``-o -``) the text moves to stderr.
    """
    from agentic_evals.reports.json_out import write_model_atomic

    if output is not None:
        write_model_atomic(output, document)
    click.echo(text, nl=False, err=output is not None and str(output) == "-")


def refuse_input_as_output(output: Path | None, inputs: tuple[Path, ...]) -> None:
    """Refuse (invalid usage) an ``-o`` that names one of the command's input files."""
    if output is None or str(output) == "-" or not output.exists():
        return
    for given in inputs:
        if given.exists() and output.resolve() == given.resolve():
            raise click.UsageError(f"-o {output} is one of the inputs; it would be overwritten")
