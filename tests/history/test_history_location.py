"""Which history a command uses: the URL forms, the variable, the XDG default."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_evals.history.errors import HistoryUsageError
from agentic_evals.history.location import (
    DEFAULT_LOCK_TIMEOUT,
    ENV_VAR,
    redact_password,
    resolve_location,
)
from agentic_evals.history.store import _psycopg_sql


def test_sqlite_urls_take_relative_and_absolute_paths_and_a_timeout() -> None:
    relative = resolve_location("sqlite:///out/h.sqlite", {})
    assert (relative.backend, relative.path) == ("sqlite", Path("out/h.sqlite"))
    assert relative.lock_timeout == DEFAULT_LOCK_TIMEOUT
    absolute = resolve_location("sqlite:////var/tmp/h.sqlite?timeout=2.5", {})
    assert (absolute.path, absolute.lock_timeout) == (Path("/var/tmp/h.sqlite"), 2.5)
    assert resolve_location("sqlite:///a%20b.sqlite", {}).path == Path("a b.sqlite")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("sqlite:///", "names no file"),
        ("sqlite:///:memory:", "names no file"),
        ("sqlite:///h.sqlite?timeout=-1", "timeout must be"),
        ("sqlite:///h.sqlite?timeout=nan", "timeout must be"),
        ("sqlite:///h.sqlite?timeout=inf", "timeout must be"),
        ("sqlite:///h.sqlite?mode=ro", "unknown parameter 'mode'"),
        ("sqlite://h.sqlite", "unsupported history URL"),
        ("/tmp/h.sqlite", "unsupported history URL"),
        ("mysql://user:secret@db/history", "'mysql://user:***@db/history'"),
    ],
)
def test_unusable_urls_are_named(url: str, message: str) -> None:
    with pytest.raises(HistoryUsageError, match=message.replace("*", r"\*").replace("?", r"\?")):
        resolve_location(url, {})


def test_the_option_beats_the_variable_which_beats_the_default(tmp_path: Path) -> None:
    env = {ENV_VAR: "postgresql://ci@db/history", "XDG_DATA_HOME": str(tmp_path)}
    assert resolve_location("sqlite:///x.sqlite", env).path == Path("x.sqlite")
    assert resolve_location(None, env).backend == "postgresql"
    assert resolve_location(None, {**env, ENV_VAR: ""}).path == (
        tmp_path / "agentic-evals" / "history.sqlite"
    )


def test_the_default_follows_xdg_and_falls_back_to_home(tmp_path: Path) -> None:
    home = {"HOME": str(tmp_path)}
    fallback = tmp_path / ".local" / "share" / "agentic-evals" / "history.sqlite"
    assert resolve_location(None, home).path == fallback
    # A relative XDG_DATA_HOME is invalid by the XDG rules and is ignored.
    assert resolve_location(None, {**home, "XDG_DATA_HOME": "data"}).path == fallback
    with pytest.raises(HistoryUsageError, match="neither XDG_DATA_HOME nor HOME"):
        resolve_location(None, {})


def test_passwords_never_appear_in_messages() -> None:
    url = "postgresql://ci:s3cret@db.internal:5433/history?sslmode=require"
    shown = resolve_location(url, {}).display()
    assert "s3cret" not in shown
    assert shown == "postgresql://ci:***@db.internal:5433/history?sslmode=require"
    assert redact_password("postgresql://ci@db/history") == "postgresql://ci@db/history"


def test_one_query_text_serves_both_drivers() -> None:
    sql = "SELECT a::text FROM t WHERE x = :name AND y = :other_1 AND z = 'a:b'"
    assert _psycopg_sql(sql) == (
        "SELECT a::text FROM t WHERE x = %(name)s AND y = %(other_1)s AND z = 'a:b'"
    )
