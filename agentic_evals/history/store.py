"""A connection to the history: one small interface over ``sqlite3`` and ``psycopg`` 3.

Every query of the history is written once, with ``:name`` placeholders, and
runs unchanged on both databases (the placeholders become ``%(name)s`` for
psycopg). What differs lives here and only here: how to connect, how a write
transaction takes its lock, how to ask whether a table exists, and which
exceptions the driver raises (all become :class:`HistoryError`).

SQLite runs in WAL mode, so readers never block the writer, and every write
transaction starts with ``BEGIN IMMEDIATE``, so two writers queue for the lock
(up to the URL's ``timeout``) instead of failing half-way. On PostgreSQL,
migrations and recordings each take an advisory lock.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final

from agentic_evals.history.errors import HistoryError
from agentic_evals.history.location import HistoryLocation

Row = dict[str, Any]
"""One result row, by column name."""
Params = Mapping[str, object]
"""Named query parameters."""

_PLACEHOLDER: Final = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_MIGRATION_LOCK: Final = 0x61655F68  # any constant: one advisory lock id for migrations
_RECORD_LOCK: Final = 0x61655F72  # and another for recording
_CONNECT_TIMEOUT: Final = 10


class Store(ABC):
    """An open history database; use :func:`connect` to get one."""

    def __init__(self, location: HistoryLocation, connection: Any) -> None:
        self.location = location
        self._connection = connection

    def query(self, sql: str, params: Params | None = None) -> list[Row]:
        """Run a query and return its rows."""
        with self._errors():
            cursor = self._connection.execute(self._sql(sql), dict(params or {}))
            return [dict(row) for row in cursor.fetchall()]

    def execute(self, sql: str, params: Params | None = None) -> int:
        """Run a statement and return how many rows it changed."""
        with self._errors():
            cursor = self._connection.execute(self._sql(sql), dict(params or {}))
            return int(cursor.rowcount)

    def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run a statement once per row of parameters."""
        if not rows:
            return
        with self._errors():
            self._connection.cursor().executemany(self._sql(sql), [dict(row) for row in rows])

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """Everything inside commits together, or not at all."""

    @abstractmethod
    def has_table(self, name: str) -> bool:
        """Whether the history holds a table called ``name``."""

    def lock_schema(self) -> None:  # noqa: B027 - SQLite's BEGIN IMMEDIATE already serialises
        """Inside a transaction: keep other connections from migrating at the same time."""

    def lock_records(self) -> None:  # noqa: B027 - SQLite's BEGIN IMMEDIATE already serialises
        """Inside a transaction: keep other connections from recording at the same time.

        A resumed run's report removes the runs it continues, and a run is not recorded
        once a resumed one took its place: both must see each other's writes.
        """

    def close(self) -> None:
        """Close the connection (errors on close are of no interest any more)."""
        try:
            self._connection.close()
        except Exception:  # noqa: BLE001, S110 - nothing depends on a clean close
            pass

    def _sql(self, sql: str) -> str:
        return sql

    @abstractmethod
    def _driver_errors(self) -> tuple[type[Exception], ...]:
        """The driver's base exception classes."""

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except self._driver_errors() as error:
            raise HistoryError(
                f"history {self.location.display()}: {_first_line(error)}"
            ) from error


class SQLiteStore(Store):
    """A history in a SQLite file."""

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction that holds SQLite's write lock from its start."""
        with self._errors():
            self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield
            with self._errors():
                self._connection.execute("COMMIT")
        except BaseException:
            if self._connection.in_transaction:
                with contextlib.suppress(sqlite3.Error):  # the first error is the one to tell
                    self._connection.rollback()
            raise

    def has_table(self, name: str) -> bool:
        """Whether ``sqlite_master`` lists the table."""
        rows = self.query(
            "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = :name",
            {"name": name},
        )
        return bool(rows)

    def _driver_errors(self) -> tuple[type[Exception], ...]:
        return (sqlite3.Error,)


class PostgresStore(Store):
    """A history in a PostgreSQL database (the connection's ``search_path`` schema)."""

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction: psycopg commits it on success and rolls it back on error."""
        with self._errors(), self._connection.transaction():
            yield

    def has_table(self, name: str) -> bool:
        """Whether the current schema holds the table."""
        rows = self.query(
            "SELECT 1 AS found FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name = :name",
            {"name": name},
        )
        return bool(rows)

    def lock_schema(self) -> None:
        """A transaction-scoped advisory lock: concurrent first uses migrate one at a time."""
        self.query("SELECT pg_advisory_xact_lock(:key) AS locked", {"key": _MIGRATION_LOCK})

    def lock_records(self) -> None:
        """A transaction-scoped advisory lock: concurrent writers record one at a time."""
        self.query("SELECT pg_advisory_xact_lock(:key) AS locked", {"key": _RECORD_LOCK})

    def _sql(self, sql: str) -> str:
        return _psycopg_sql(sql)

    def _driver_errors(self) -> tuple[type[Exception], ...]:
        import psycopg

        return (psycopg.Error,)


@functools.lru_cache(maxsize=256)
def _psycopg_sql(sql: str) -> str:
    """``:name`` placeholders as psycopg's ``%(name)s`` (the queries hold no literal ``%``)."""
    return _PLACEHOLDER.sub(r"%(\1)s", sql)


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def connect(location: HistoryLocation) -> Store:
    """Open the history at ``location`` (creating a SQLite file and its folder if needed).

    Raises:
        HistoryError: The file or server cannot be reached, or the driver is missing.
    """
    if location.backend == "postgresql":
        return _connect_postgresql(location)
    assert location.path is not None
    try:
        location.path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise HistoryError(
            f"history {location.display()}: cannot create its folder: {error.strerror or error}"
        ) from error
    try:
        connection = sqlite3.connect(
            location.path, timeout=location.lock_timeout, isolation_level=None
        )
        connection.row_factory = sqlite3.Row
        store = SQLiteStore(location, connection)
        with store._errors():
            # WAL: readers do not block the writer; NORMAL: a commit survives a crash of
            # this process (the reports, not the index, are what must survive power loss).
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error as error:
        raise HistoryError(f"history {location.display()}: {_first_line(error)}") from error
    return store


def _connect_postgresql(location: HistoryLocation) -> Store:
    try:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict, make_conninfo
        from psycopg.rows import dict_row
    except ImportError as error:
        raise HistoryError(
            f"history {location.display()}: PostgreSQL needs the psycopg driver "
            "(pip install 'agentic-evals[postgresql]')"
        ) from error
    try:
        conninfo = location.url
        if "connect_timeout" not in conninfo_to_dict(conninfo):
            conninfo = make_conninfo(conninfo, connect_timeout=_CONNECT_TIMEOUT)
        connection = psycopg.connect(conninfo, autocommit=True, row_factory=dict_row)
    except psycopg.Error as error:
        raise HistoryError(f"history {location.display()}: {_first_line(error)}") from error
    return PostgresStore(location, connection)
