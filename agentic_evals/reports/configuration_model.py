"""The resolved configuration a report records (optional field of ``agentic_evals.report.v2``)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue


class ConfigurationReport(BaseModel):
    """The options a run or merge used, and where each came from (``docs/configuration.md``)."""

    model_config = ConfigDict(extra="forbid")

    file: str | None
    """The configuration file read; null when none was found or with ``--no-config``."""
    enabled: bool
    """False with ``--no-config``: no file was looked for."""
    values: dict[str, JsonValue]
    """Every configurable option's resolved value (paths as given, or resolved from the
    configuration file's directory)."""
    sources: dict[str, Literal["flag", "config", "default"]]
    """Where each value came from: a command-line flag (which wins), the file, or the default."""
