"""The ``--evals DIR`` option of the commands that look for a skill's fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable[..., object])

EVALS_HELP = (
    "The evals tree kept outside the skills (one folder per skill name; its fixtures name "
    "the skill through skill_root). Default: evals/ beside the skills' folder, when present."
)


def evals_option(command: F) -> F:
    """Add ``--evals DIR`` (an existing folder) to ``command`` as its ``evals`` argument."""
    option = click.option(
        "--evals",
        "evals",
        type=click.Path(path_type=Path, file_okay=False, exists=True),
        default=None,
        metavar="DIR",
        help=EVALS_HELP,
    )
    return option(command)
