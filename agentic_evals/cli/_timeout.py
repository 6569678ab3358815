"""``--timeout-seconds``: a number of seconds above 0 and at most one day, finite.

The same bound as ``timeout_seconds`` in a fixture or configuration file
(``MAX_TIMEOUT_SECONDS``): the runner's waits cannot express a longer one, so a
larger value is refused, not clamped. ``nan``, ``inf`` and a number written
with more than ``MAX_NUMBER_TEXT`` characters are refused too.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import click

from agentic_evals.limits import MAX_NUMBER_TEXT, MAX_TIMEOUT_SECONDS

if TYPE_CHECKING:
    _Type = click.ParamType[float]  # generic in the type information only (click 8.1 is not)
else:
    _Type = click.ParamType


class Seconds(_Type):
    """A timeout in seconds: 0 < value <= ``MAX_TIMEOUT_SECONDS``."""

    name = "seconds"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """Shown in the help: the accepted range."""
        return f"(0, {MAX_TIMEOUT_SECONDS:g}]"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        """The number of seconds ``value`` says; a usage error naming the bound otherwise."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            if len(text) > MAX_NUMBER_TEXT:
                self.fail(
                    f"{len(text):,} characters; a number has at most {MAX_NUMBER_TEXT}", param, ctx
                )
            try:
                number = float(text)
            except ValueError:
                self.fail(f"{text!r} is not a number of seconds", param, ctx)
        if not math.isfinite(number) or not 0 < number <= MAX_TIMEOUT_SECONDS:
            self.fail(
                f"{value!r} is not in (0, {MAX_TIMEOUT_SECONDS:g}]: a timeout is above 0 seconds "
                "and at most one day",
                param,
                ctx,
            )
        return number


SECONDS = Seconds()
