"""End a command with an exit code, in and outside click's standalone mode."""

from __future__ import annotations

from typing import NoReturn

import click

from agentic_evals.exitcodes import ExitCode


def finish(code: ExitCode) -> NoReturn:
    """Leave the current command with ``code``."""
    click.get_current_context().exit(int(code))
    raise AssertionError("unreachable")  # pragma: no cover - exit() raises


class InvalidInputError(click.ClickException):
    """Bad input or usage found by a command (an output path, a configuration file): exit 2."""

    exit_code = int(ExitCode.INVALID)
