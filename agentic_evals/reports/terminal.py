"""Whether to colour terminal output, how wide the terminal is, and the options that say so.

``--color always|never`` (or the configuration's ``color``) decides outright.
``auto`` follows the environment: ``NO_COLOR`` (non-empty) turns colour off,
else ``FORCE_COLOR`` (non-empty, other than ``0``/``false``) turns it on, else
colour is used only when the stream is a terminal. ``NO_COLOR`` wins over
``FORCE_COLOR`` (https://no-color.org: a user's explicit flag or configuration
overrides both).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import IO, Final, Literal, get_args

ColourChoice = Literal["auto", "always", "never"]
COLOUR_CHOICES: Final[tuple[ColourChoice, ...]] = get_args(ColourChoice)
"""``--color`` (and the configuration's ``color``)."""
ProgressMode = Literal["auto", "plain", "none"]
PROGRESS_MODES: Final[tuple[ProgressMode, ...]] = get_args(ProgressMode)
"""``run --progress`` (and the configuration's ``progress``): see :mod:`.progress`."""


def is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is attached to a terminal."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def colour_enabled(
    choice: ColourChoice, stream: IO[str], environ: Mapping[str, str] | None = None
) -> bool:
    """Whether to colour what is written to ``stream`` (see the module docstring)."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR", "")
    if force and force.lower() not in ("0", "false"):
        return True
    return is_terminal(stream)


def terminal_width(stream: IO[str], default: int = 80) -> int:
    """Columns of the terminal behind ``stream`` (``COLUMNS`` first), else ``default``."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(stream.fileno()).columns or default
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size((default, 24)).columns
