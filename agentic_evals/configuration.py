"""Defaults for command-line options from a configuration file (``docs/configuration.md``).

The file is ``agentic-evals.toml`` (its top-level table) or the
``[tool.agentic-evals]`` table of ``pyproject.toml``, in the current
directory or the nearest parent that has one; in one directory
``agentic-evals.toml`` wins, and a ``pyproject.toml`` without the table does
not count. Flags always win over the file; ``--no-config`` skips it. Keys are
the long flag names (``timeout-seconds``, ``junit-xml``). Relative paths in
the file are relative to the file's directory. An unknown key or a value of
the wrong type is an error naming the file and the key (exit 2).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Annotated, Any, Final, NamedTuple

from pydantic import ConfigDict, Field, ValidationError

from agentic_evals.documents.base import InputModel, TimeoutSeconds
from agentic_evals.documents.bounded import BoundError, read_regular
from agentic_evals.limits import MAX_DOCUMENT_BYTES
from agentic_evals.reports.model import ConfigurationReport
from agentic_evals.reports.terminal import ColourChoice, ProgressMode

TOOL_FILE: Final = "agentic-evals.toml"
PYPROJECT: Final = "pyproject.toml"
PATH_KEYS: Final = frozenset({"output", "junit_xml", "html", "markdown"})


class Settings(InputModel):
    """What a configuration file may set: defaults of ``run`` and ``merge`` options.

    Unlike a fixture's, an unknown key here is an error: a misspelt default would
    silently not apply.
    """

    model_config = ConfigDict(extra="forbid", alias_generator=lambda name: name.replace("_", "-"))

    jobs: Annotated[int, Field(ge=1)] | None = None
    """``run --jobs``: trials run at once."""
    timeout_seconds: TimeoutSeconds | None = None
    """``run --timeout-seconds``: per-trial timeout of cases that set none."""
    color: ColourChoice | None = None
    """``--color``."""
    progress: ProgressMode | None = None
    """``run --progress``."""
    output: str | None = None
    """``-o``: the JSON report."""
    junit_xml: str | None = None
    """``--junit-xml``."""
    html: str | None = None
    """``--html``."""
    markdown: str | None = None
    """``--markdown``."""
    strict: bool | None = None
    """``run --strict``: unknown fixture keys are errors."""


class ConfigurationError(ValueError):
    """The configuration file is unreadable or invalid; the message names the file and key."""


class LoadedConfiguration(NamedTuple):
    """The file read (None when none was found) and what it sets."""

    path: Path | None
    settings: Settings

    def value(self, key: str) -> Any:
        """The value the file sets for ``key`` (paths resolved), or None."""
        value = getattr(self.settings, key)
        if value is not None and key in PATH_KEYS and self.path is not None:
            return str(self.path.parent / value) if value != "-" else value
        return value


def _table(path: Path) -> dict[str, Any] | None:
    """The agentic-evals table of ``path``, or None when a pyproject.toml has none."""
    try:
        document = tomllib.loads(read_regular(path, MAX_DOCUMENT_BYTES).decode("utf-8"))
    except BoundError as error:
        raise ConfigurationError(f"{path}: cannot read: {error.rule}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"{path}: cannot read: {error}") from None
    except (tomllib.TOMLDecodeError, ValueError) as error:
        # ValueError: an integer longer than Python converts (MAX_INT_DIGITS).
        raise ConfigurationError(f"{path}: not valid TOML: {error}") from None
    if path.name != PYPROJECT:
        return document
    table = document.get("tool", {}).get("agentic-evals")
    if table is not None and not isinstance(table, dict):
        raise ConfigurationError(f"{path}: [tool.agentic-evals] must be a table")
    return table


def find_configuration(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest configuration file from ``start`` upward, with its table."""
    for directory in (start, *start.parents):
        for name in (TOOL_FILE, PYPROJECT):
            candidate = directory / name
            if candidate.is_file():
                table = _table(candidate)
                if table is not None:
                    return candidate, table
    return None


def _where(path: Path) -> str:
    return f"{path} [tool.agentic-evals]" if path.name == PYPROJECT else str(path)


def _error(path: Path, error: ValidationError) -> ConfigurationError:
    known = sorted(Settings.model_fields[name].alias or name for name in Settings.model_fields)
    messages = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"])
        if item["type"] == "extra_forbidden":
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known keys: {', '.join(known)}"
            messages.append(f"unknown key '{key}'{hint}")
        else:
            messages.append(f"key '{key}': {item['msg']} (got {item.get('input')!r})")
    return ConfigurationError(f"{_where(path)}: " + "; ".join(messages))


def load_configuration(start: Path) -> LoadedConfiguration:
    """Find and validate the configuration that applies at ``start``.

    Raises:
        ConfigurationError: The file cannot be read or parsed, has an unknown
            key, or a value of the wrong type.
    """
    found = find_configuration(start)
    if found is None:
        return LoadedConfiguration(None, Settings())
    path, table = found
    try:
        return LoadedConfiguration(path, Settings.model_validate(table))
    except ValidationError as error:
        raise _error(path, error) from None


class ResolvedOptions(NamedTuple):
    """The options a command runs with, and the record of where each came from."""

    values: dict[str, Any]
    """Option name to value."""
    record: ConfigurationReport
    """What the report records (``configuration``)."""


def resolve_options(
    given: Mapping[str, Any],
    flagged: Collection[str],
    loaded: LoadedConfiguration,
    *,
    enabled: bool,
) -> ResolvedOptions:
    """Each of ``given`` (option name to the value parsed) from a flag, the file or the default.

    ``flagged`` names the options the command line (or its environment) set:
    they win. Otherwise the file's value applies, else the option's default.
    """
    values: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    for name, value in given.items():
        from_file = loaded.value(name) if name in Settings.model_fields else None
        if name in flagged:
            values[name], sources[name] = value, "flag"
        elif from_file is not None:
            values[name], sources[name] = from_file, "config"
        else:
            values[name], sources[name] = value, "default"
    record = ConfigurationReport(
        file=str(loaded.path) if loaded.path else None,
        enabled=enabled,
        values={k: str(v) if isinstance(v, Path) else v for k, v in values.items()},
        sources=sources,
    )
    return ResolvedOptions(values, record)
