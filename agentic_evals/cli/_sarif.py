"""``--format json|sarif`` of the static commands (validate, audit-skills, coverage, regressions).

With ``sarif`` the SARIF log replaces the JSON document: it goes to ``-o``,
or to stdout when there is no ``-o``; the human summary then goes to stderr.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from agentic_evals.reports.sarif import SarifFinding

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


def write_sarif(findings: Sequence[SarifFinding], command: str, output: Path | None) -> None:
    """Write the SARIF log of ``findings`` to ``output`` (stdout when None)."""
    from agentic_evals.reports.json_out import write_text_atomic
    from agentic_evals.reports.sarif import render_sarif

    write_text_atomic(output or Path("-"), render_sarif(findings, command=command))


def summary_to_stderr(fmt: str, output: Path | None) -> bool:
    """Whether stdout carries a document, so the human summary must go to stderr."""
    return (fmt == "sarif" and output is None) or (output is not None and str(output) == "-")
