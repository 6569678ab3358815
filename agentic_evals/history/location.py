"""Where the history lives: ``--history URL``, ``AGENTIC_EVALS_HISTORY`` or the default file.

URLs follow the convention most Python tools use for databases:

- ``sqlite:///relative/path.sqlite`` and ``sqlite:////absolute/path.sqlite`` (three
  slashes, then the path); ``?timeout=SECONDS`` sets how long a writer waits for a lock;
- ``postgresql://user:password@host:port/database`` (or ``postgres://``), handed to the
  driver as it is, so every libpq parameter works (``?connect_timeout=5``, ``sslmode``...).

Without either, the history is ``$XDG_DATA_HOME/agentic-evals/history.sqlite``
(``~/.local/share/agentic-evals/history.sqlite`` when the variable is unset or not
an absolute path, as the XDG base directory rules say).
"""

from __future__ import annotations

import math
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Final, Literal, NamedTuple

from agentic_evals.history.errors import HistoryUsageError

ENV_VAR: Final = "AGENTIC_EVALS_HISTORY"
"""The environment variable that selects the history when ``--history`` is not given."""
DEFAULT_LOCK_TIMEOUT: Final = 10.0
"""Seconds a SQLite writer waits for another writer's lock before giving up."""
_SQLITE: Final = "sqlite:///"
_POSTGRESQL: Final = ("postgresql://", "postgres://")


class HistoryLocation(NamedTuple):
    """A parsed history URL."""

    backend: Literal["sqlite", "postgresql"]
    """Which database."""
    url: str
    """The URL as given (or built for the default file)."""
    path: Path | None = None
    """The SQLite file; None for PostgreSQL."""
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT
    """Seconds a SQLite writer waits for a lock."""

    def display(self) -> str:
        """The location for messages: the file, or the URL without its password."""
        if self.path is not None:
            return str(self.path)
        return redact_password(self.url)


def redact_password(url: str) -> str:
    """``url`` with the password (if any) replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username or ''}:***@{host}"
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def default_path(environ: Mapping[str, str]) -> Path:
    """The default SQLite file under the XDG data directory.

    Raises:
        HistoryUsageError: Neither an absolute ``XDG_DATA_HOME`` nor ``HOME`` is set.
    """
    data_home = environ.get("XDG_DATA_HOME", "")
    if data_home and Path(data_home).is_absolute():
        return Path(data_home) / "agentic-evals" / "history.sqlite"
    home = environ.get("HOME", "")
    if not home:
        raise HistoryUsageError(
            "no default history: neither XDG_DATA_HOME nor HOME is set "
            f"(give --history URL or {ENV_VAR})"
        )
    return Path(home) / ".local" / "share" / "agentic-evals" / "history.sqlite"


def resolve_location(url: str | None, environ: Mapping[str, str]) -> HistoryLocation:
    """The history selected by ``url`` (``--history``), else the environment, else the default.

    Raises:
        HistoryUsageError: The URL names no supported database, or has no path.
    """
    chosen = url if url else environ.get(ENV_VAR, "")
    if not chosen:
        path = default_path(environ)
        return HistoryLocation("sqlite", _SQLITE + str(path), path)
    if chosen.startswith(_POSTGRESQL):
        return HistoryLocation("postgresql", chosen)
    if chosen.startswith(_SQLITE):
        return _sqlite_location(chosen)
    raise HistoryUsageError(
        f"unsupported history URL {redact_password(chosen)!r}: "
        "use sqlite:///PATH (sqlite:////ABSOLUTE/PATH) or postgresql://..."
    )


def _sqlite_location(url: str) -> HistoryLocation:
    rest, _, query = url.removeprefix(_SQLITE).partition("?")
    if not rest or rest == ":memory:":
        raise HistoryUsageError(f"history URL {url!r} names no file: use sqlite:///PATH")
    timeout = DEFAULT_LOCK_TIMEOUT
    for name, values in urllib.parse.parse_qs(query, keep_blank_values=True).items():
        if name != "timeout":
            raise HistoryUsageError(f"history URL {url!r}: unknown parameter {name!r}")
        try:
            timeout = float(values[-1])
        except ValueError:
            timeout = -1.0
        if not (math.isfinite(timeout) and timeout >= 0):
            raise HistoryUsageError(
                f"history URL {url!r}: timeout must be a number of seconds >= 0"
            )
    return HistoryLocation("sqlite", url, Path(urllib.parse.unquote(rest)), timeout)
