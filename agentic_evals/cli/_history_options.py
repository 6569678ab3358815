"""The options that select the history, and the one call ``run`` and ``merge`` make to record.

Nothing here imports the history (or a database driver) until a command runs,
so that ``--help`` and every other command stay as fast as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:
    from agentic_evals.reports.model import Report

F = TypeVar("F", bound=Callable[..., object])

HISTORY_HELP = (
    "The history: sqlite:///PATH, sqlite:////ABSOLUTE/PATH or postgresql://... "
    "(default: env AGENTIC_EVALS_HISTORY, else $XDG_DATA_HOME/agentic-evals/history.sqlite)."
)

history_url_option = click.option("--history", "history_url", metavar="URL", help=HISTORY_HELP)
"""``--history URL`` for the commands that read or write the history."""


def record_options(command: F) -> F:
    """``--history URL`` and ``--no-history``, for the commands that record their report."""
    command = click.option(
        "--no-history", is_flag=True, help="Do not record this report in the history."
    )(command)
    return history_url_option(command)


def record_report(report: Report, history_url: str | None, no_history: bool) -> None:
    """Record ``report``; a failure prints one line on stderr and changes nothing else."""
    if no_history:
        return
    from agentic_evals.history.recorder import record_quietly

    message = record_quietly(report, history_url)
    if message is not None:
        click.echo(message, err=True)
