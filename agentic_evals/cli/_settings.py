"""Options that a configuration file may default: flags win, then the file, then the default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from agentic_evals.cli._exit import InvalidInputError
from agentic_evals.reports.configuration_model import ConfigurationReport

F = TypeVar("F", bound=Callable[..., Any])

_FROM_FLAG = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT, ParameterSource.PROMPT)


def no_config_option(func: F) -> F:
    """``--no-config``: read no configuration file."""
    return click.option(
        "--no-config",
        is_flag=True,
        help="Read no configuration file (agentic-evals.toml, [tool.agentic-evals]).",
    )(func)


def resolve(
    ctx: click.Context, given: Mapping[str, Any], *, no_config: bool
) -> tuple[dict[str, Any], ConfigurationReport]:
    """Each of ``given`` (option name to the value click parsed) as flag, file or default.

    Raises:
        InvalidInputError: The configuration file is invalid (exit 2).
    """
    from agentic_evals.configuration import (
        ConfigurationError,
        LoadedConfiguration,
        Settings,
        load_configuration,
    )

    loaded = LoadedConfiguration(None, Settings())
    if not no_config:
        try:
            loaded = load_configuration(Path.cwd())
        except ConfigurationError as error:
            raise InvalidInputError(str(error)) from None
    values: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    for name, value in given.items():
        from_file = loaded.value(name) if name in Settings.model_fields else None
        if ctx.get_parameter_source(name) in _FROM_FLAG:
            values[name], sources[name] = value, "flag"
        elif from_file is not None:
            values[name], sources[name] = from_file, "config"
        else:
            values[name], sources[name] = value, "default"
    record = ConfigurationReport(
        file=str(loaded.path) if loaded.path else None,
        enabled=not no_config,
        values={k: str(v) if isinstance(v, Path) else v for k, v in values.items()},
        sources=sources,
    )
    return values, record
