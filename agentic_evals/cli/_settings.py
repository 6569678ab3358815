"""Options that a configuration file may default: flags win, then the file, then the default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from agentic_evals.cli._exit import refuse

if TYPE_CHECKING:
    from agentic_evals.configuration import ResolvedOptions

F = TypeVar("F", bound=Callable[..., Any])

_FROM_FLAG = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT, ParameterSource.PROMPT)


def no_config_option(func: F) -> F:
    """``--no-config``: read no configuration file."""
    return click.option(
        "--no-config",
        is_flag=True,
        help="Read no configuration file (agentic-evals.toml, [tool.agentic-evals]).",
    )(func)


def resolve(ctx: click.Context, given: Mapping[str, Any], *, no_config: bool) -> ResolvedOptions:
    """Each of ``given`` (option name to the value click parsed) as flag, file or default.

    An invalid configuration file ends the command (exit 2, naming the file and key).
    """
    from agentic_evals.configuration import (
        ConfigurationError,
        LoadedConfiguration,
        Settings,
        load_configuration,
        resolve_options,
    )

    loaded = LoadedConfiguration(None, Settings())
    if not no_config:
        try:
            loaded = load_configuration(Path.cwd())
        except ConfigurationError as error:
            refuse(ctx.info_name or "agentic-evals", error)
    flagged = {name for name in given if ctx.get_parameter_source(name) in _FROM_FLAG}
    return resolve_options(given, flagged, loaded, enabled=not no_config)
