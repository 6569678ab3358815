"""How a command ends: its document written, its summary shown, its exit code returned."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn

import click

from agentic_evals.exitcodes import ExitCode

if TYPE_CHECKING:
    from pydantic import BaseModel

    from agentic_evals.documents.findings import Finding


def finish(code: ExitCode) -> NoReturn:
    """Leave the current command with ``code``."""
    click.get_current_context().exit(int(code))
    raise AssertionError("unreachable")  # pragma: no cover - exit() raises


def verdict_code(*, not_ready: bool, report_only: bool = False, invalid: bool = False) -> ExitCode:
    """2 for invalid input; else 1 when not ready (unless ``--report-only``); else 0."""
    if invalid:
        return ExitCode.INVALID
    return ExitCode.NOT_READY if not_ready and not report_only else ExitCode.OK


def refuse(command: str, error: Exception | str) -> NoReturn:
    """Say why ``command`` cannot work on its input, and exit 2 (invalid input or usage)."""
    click.echo(f"agentic-evals {command}: {error}", err=True)
    finish(ExitCode.INVALID)


def echo_findings(findings: list[Finding]) -> None:
    """Print findings on stderr, one line each."""
    for finding in findings:
        click.echo(finding.render(), err=True)


def summary_stream(output: Path | None) -> IO[str]:
    """Where the summary goes: stderr when the JSON document takes stdout (``-o -``)."""
    return sys.stderr if output is not None and str(output) == "-" else sys.stdout


def emit(
    code: ExitCode,
    summary: str,
    *,
    output: Path | None = None,
    document: BaseModel | None = None,
    colour: bool = False,
) -> NoReturn:
    """Write ``document`` to ``output`` (when both are given), show ``summary``, exit ``code``."""
    from agentic_evals.reports.json_out import write_model_atomic

    if output is not None and document is not None:
        write_model_atomic(output, document)
    stream = summary_stream(output)
    click.echo(summary, nl=False, err=stream is sys.stderr, color=colour)
    finish(code)
