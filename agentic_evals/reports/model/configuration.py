"""The resolved configuration a report records (optional field of ``agentic_evals.report.v2``)."""

from typing import Literal

from pydantic import JsonValue

from agentic_evals.documents.base import OutputModel

ConfigurationSource = Literal["flag", "config", "default"]


class ConfigurationReport(OutputModel):
    """The options a run or merge used, and where each came from (``docs/configuration.md``)."""

    file: str | None
    """The configuration file read; null when none was found or with ``--no-config``."""
    enabled: bool
    """False with ``--no-config``: no file was looked for."""
    values: dict[str, JsonValue]
    """Every configurable option's resolved value (paths as given, or resolved from the
    configuration file's directory)."""
    sources: dict[str, ConfigurationSource]
    """Where each value came from: a command-line flag (which wins), the file, or the default."""
