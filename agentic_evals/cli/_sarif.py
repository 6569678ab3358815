"""``--format json|sarif`` of the static commands (validate, audit-skills, coverage, regressions).

With ``sarif`` the SARIF log replaces the JSON document: it goes to ``-o``,
or to stdout when there is no ``-o``; the human summary then goes to stderr.
Findings are located in their files (line and column) before they are rendered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeVar

import click

from agentic_evals.cli._exit import emit

if TYPE_CHECKING:
    from pydantic import BaseModel

    from agentic_evals.documents.findings import Finding
    from agentic_evals.exitcodes import ExitCode

F = TypeVar("F", bound=Callable[..., Any])


def format_option(func: F) -> F:
    """``--format json|sarif``."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["json", "sarif"]),
        default="json",
        show_default=True,
        help="What -o writes: the JSON document, or a SARIF 2.1.0 log (to stdout without -o).",
    )(func)


def sarif_text(findings: Iterable[tuple[Finding, Path | None]], command: str) -> str:
    """The SARIF log of ``findings``, each ``(finding, the folder its file is relative to)``."""
    from agentic_evals.documents.located import located
    from agentic_evals.reports.sarif import render_sarif

    return render_sarif(located(findings), command=command)


class SarifSource(NamedTuple):
    """What a command reports in SARIF: its name and its findings (computed only when asked)."""

    command: str
    """``validate``, ``coverage-show``...: the run's ``automationDetails`` id."""
    findings: Callable[[], Iterable[tuple[Finding, Path | None]]]
    """Each finding with the folder its file is relative to (None: as given)."""


def emit_document(
    code: ExitCode,
    summary: str,
    document: BaseModel,
    *,
    fmt: str,
    output: Path | None,
    sarif: SarifSource,
) -> NoReturn:
    """End the command: ``document`` as JSON, or as the SARIF log of ``sarif``'s findings."""
    if fmt != "sarif":
        emit(code, summary, output=output, document=document)
    target = Path("-") if output is None else output
    emit(code, summary, texts=[(target, sarif_text(sarif.findings(), sarif.command))])
