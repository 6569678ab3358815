"""A throw-away PostgreSQL server for the tests: Debian's initdb and pg_ctl on a temporary
data directory, listening on 127.0.0.1 at a free port.

PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user
that Debian's package creates. Where no server can be started, ``start`` says why, and
the tests that need one are skipped with that reason.

The test process may be a child subreaper (every in-process ``run`` makes it one), and
then the daemonised server would be re-parented to it and look, to the runner's tests,
like a process some trial left behind. So the server starts while the flag is off, and
init adopts it.
"""

from __future__ import annotations

import ctypes
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

INSTALL_HINT = "apt-get install postgresql (.ci/run installs it)"
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37


class Server(NamedTuple):
    base_url: str
    data_dir: Path
    bin_dir: Path
    user: str | None

    def url(self, schema: str) -> str:
        """A URL whose connections work in ``schema`` (one per test keeps tests apart)."""
        options = urllib.parse.quote(f"-csearch_path={schema}")
        return f"{self.base_url}?options={options}"


def bin_dir() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's newest version."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    for candidate in reversed(versions):
        if (candidate / "pg_ctl").exists() and (candidate / "initdb").exists():
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _not_a_subreaper() -> Iterator[None]:
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(0)
    libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
    try:
        yield
    finally:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, flag.value, 0, 0, 0)


def _as_server_user(user: str | None, argv: list[str]) -> list[str]:
    return argv if user is None else ["runuser", "-u", user, "--", *argv]


def start() -> Server | str:
    """Start a server; return it, or the reason none could be started."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed"
    binaries = bin_dir()
    if binaries is None:
        return f"no PostgreSQL server binaries (initdb, pg_ctl): {INSTALL_HINT}"
    user = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
        user = "postgres"
    root = Path(tempfile.mkdtemp(prefix="agentic-evals-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data = root / "data"
    initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
    initdb += ["-E", "UTF8", "--locale=C", "--no-sync"]
    done = subprocess.run(_as_server_user(user, initdb), capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        return f"initdb failed: {done.stderr.strip()[-300:]}"
    for _ in range(3):  # another process may take the free port before the server does
        port = _free_port()
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        options += " -c synchronous_commit=off -c full_page_writes=off"
        argv = [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w"]
        argv += ["-t", "60", "-o", options, "start"]
        with _not_a_subreaper():
            started = subprocess.run(_as_server_user(user, argv), capture_output=True)
        if started.returncode == 0:
            return Server(f"postgresql://postgres@127.0.0.1:{port}/postgres", data, binaries, user)
    log = (root / "log").read_text(errors="replace")[-300:] if (root / "log").exists() else ""
    shutil.rmtree(root, ignore_errors=True)
    return f"pg_ctl could not start the server: {log}"


def stop(server: Server) -> None:
    argv = [str(server.bin_dir / "pg_ctl"), "-D", str(server.data_dir), "-m", "immediate"]
    subprocess.run(_as_server_user(server.user, [*argv, "-w", "stop"]), capture_output=True)
    shutil.rmtree(server.data_dir.parent, ignore_errors=True)


@contextmanager
def fresh_schema(server: Server) -> Iterator[str]:
    """A new, empty schema for one test; its URL is ``server.url(name)``."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.base_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    try:
        yield server.url(name)
    finally:
        with psycopg.connect(server.base_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {name} CASCADE")
