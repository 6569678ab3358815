"""``run`` and ``merge`` record their reports; the store is chosen by --history, the
environment or the XDG default; no history failure changes a verdict or an exit code."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import postgres_server
import pytest
from click.testing import CliRunner, Result
from history_helpers import HISTORY_FIXTURE

from agentic_evals.cli import cli
from agentic_evals.history.access import open_history
from agentic_evals.history.queries import list_runs

FAILING = {
    **HISTORY_FIXTURE,
    "cases": [{**HISTORY_FIXTURE["cases"][0], "expected": {"exit_code": 4}}],
}


def invoke(*args: str, env: Mapping[str, str] | None = None) -> Result:
    # Without progress lines, a run's stderr holds only what the history says.
    argv = [*args, "--progress", "none"] if args[0] == "run" else list(args)
    return CliRunner().invoke(cli, argv, env=dict(env or {}), catch_exceptions=False)


def fixture(folder: Path, document: dict[str, Any] = HISTORY_FIXTURE) -> Path:
    path = folder / "agentic_eval.json"
    path.write_text(json.dumps(document))
    return path


def run_ids(url: str) -> list[str]:
    with open_history(url) as store:
        return [run.run_id for run in list_runs(store).runs]


@pytest.fixture(scope="module")
def data_home_of_module_fixtures() -> str:
    return os.environ["XDG_DATA_HOME"]


def test_not_even_module_fixtures_see_the_real_data_home(
    data_home_of_module_fixtures: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Module-scoped fixtures that run the CLI (test_shard_merge's) record their runs too.
    assert Path(data_home_of_module_fixtures).is_relative_to(tmp_path_factory.getbasetemp())


def test_run_records_its_report_in_the_default_history(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    result = invoke("run", str(fixture(tmp_path)), "-o", str(report))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    default = Path(os.environ["XDG_DATA_HOME"]) / "agentic-evals" / "history.sqlite"
    assert default.is_file()
    run_id = json.loads(report.read_text())["run_id"]
    assert run_ids(f"sqlite:///{default}") == [run_id]
    shown = invoke("history", "show", "last", "-o", "-")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["run"]["run_id"] == run_id


def test_home_is_the_fallback_without_xdg_data_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"XDG_DATA_HOME": "", "HOME": str(home)}
    assert invoke("run", str(fixture(tmp_path)), env=env).exit_code == 0
    assert (home / ".local" / "share" / "agentic-evals" / "history.sqlite").is_file()


def test_history_option_and_variable_select_the_store_and_no_history_turns_it_off(
    tmp_path: Path,
) -> None:
    chosen = f"sqlite:///{tmp_path / 'chosen.sqlite'}"
    from_env = f"sqlite:///{tmp_path / 'env.sqlite'}"
    path = str(fixture(tmp_path))
    env = {"AGENTIC_EVALS_HISTORY": from_env}
    assert invoke("run", path, "--history", chosen, env=env).exit_code == 0
    assert invoke("run", path, env=env).exit_code == 0
    assert invoke("run", path, "--no-history", env=env).exit_code == 0
    assert invoke("run", path, "--no-history", "--history", chosen).exit_code == 0
    assert len(run_ids(chosen)) == 1
    assert len(run_ids(from_env)) == 1
    assert not (Path(os.environ["XDG_DATA_HOME"]) / "agentic-evals").exists()


def test_merge_records_the_merged_report(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    path = str(fixture(tmp_path))
    shards = []
    for k in (1, 2):
        shards.append(str(tmp_path / f"shard-{k}.json"))
        argv = ["run", path, "--shard", f"{k}/2", "-o", shards[-1], "--history", url]
        assert invoke(*argv, "--report-only").exit_code == 0
    merged = tmp_path / "merged.json"
    result = invoke("merge", *shards, "-o", str(merged), "--history", url)
    assert result.exit_code == 0, result.output
    with open_history(url) as store:
        runs = list_runs(store).runs
    assert runs[0].run_id == json.loads(merged.read_text())["run_id"]
    assert runs[0].shard is None and runs[0].case_count == 2
    assert sorted(run.shard or "" for run in runs) == ["", "1/2", "2/2"]
    assert invoke("merge", *shards, "-o", str(tmp_path / "m2.json"), "--no-history").exit_code == 0
    assert len(run_ids(url)) == 3


def broken_histories(tmp_path: Path) -> dict[str, str]:
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"not a database, just bytes " * 100)
    newer = tmp_path / "newer.sqlite"
    with sqlite3.connect(newer) as connection:
        connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO schema_version VALUES (99)")
    broken = {
        "unwritable path": "sqlite:////proc/agentic-evals/history.sqlite",
        "corrupt database": f"sqlite:///{corrupt}",
        "newer schema": f"sqlite:///{newer}",
        "unsupported URL": "mysql://somewhere/history",
        "server down": f"postgresql://nobody@127.0.0.1:{free_port()}/none?connect_timeout=2",
    }
    if os.geteuid() != 0:  # root writes into read-only folders
        read_only = tmp_path / "read-only"
        read_only.mkdir()
        read_only.chmod(0o500)
        broken["read-only folder"] = f"sqlite:///{read_only / 'sub' / 'history.sqlite'}"
    return broken


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("document", [HISTORY_FIXTURE, FAILING], ids=["ready", "not-ready"])
def test_a_broken_history_leaves_the_verdict_and_exit_code_untouched(
    tmp_path: Path, document: dict[str, Any]
) -> None:
    path = str(fixture(tmp_path, document))
    expected = 0 if document is HISTORY_FIXTURE else 1
    readiness = "READY" if expected == 0 else "NOT_READY"
    for reason, url in broken_histories(tmp_path).items():
        report = tmp_path / f"{reason}.json"
        for argv, env in (
            (["--history", url], {}),
            ([], {"AGENTIC_EVALS_HISTORY": url}),
        ):
            result = invoke("run", path, "-o", str(report), *argv, env=env)
            assert result.exit_code == expected, (reason, result.output)
            assert f"readiness: {readiness} (exit {expected})" in result.stdout
            assert json.loads(report.read_text())["readiness"] == readiness
            lines = result.stderr.splitlines()
            assert len(lines) == 1, (reason, lines)
            assert lines[0].startswith("agentic-evals: history: run "), lines
            assert "not recorded: " in lines[0] and "Traceback" not in result.stderr
    assert (tmp_path / "corrupt.sqlite").read_bytes().startswith(b"not a database")


def test_merge_with_a_broken_history_still_exits_by_its_verdict(tmp_path: Path) -> None:
    shards = []
    for k in (1, 2):
        shards.append(str(tmp_path / f"shard-{k}.json"))
        argv = ["run", str(fixture(tmp_path, FAILING)), "--shard", f"{k}/2", "-o", shards[-1]]
        assert invoke(*argv, "--report-only", "--no-history").exit_code == 0
    merged = tmp_path / "merged.json"
    for reason, url in broken_histories(tmp_path).items():
        result = invoke("merge", *shards, "-o", str(merged), "--history", url)
        assert result.exit_code == 1, (reason, result.output)
        assert json.loads(merged.read_text())["readiness"] == "NOT_READY"
        assert "readiness: NOT_READY (exit 1)" in result.stdout
        (line,) = result.stderr.splitlines()
        assert line.startswith("agentic-evals: history: run ") and "not recorded: " in line
        report_only = invoke("merge", *shards, "-o", str(merged), "--report-only", "--history", url)
        assert report_only.exit_code == 0, (reason, report_only.output)


def test_a_locked_history_is_reported_and_the_run_still_exits_by_its_verdict(
    tmp_path: Path,
) -> None:
    database = tmp_path / "locked.sqlite"
    url = f"sqlite:///{database}?timeout=0.2"
    path = str(fixture(tmp_path))
    assert invoke("run", path, "--history", url).exit_code == 0
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock for the whole run
    try:
        result = invoke("run", path, "--history", url)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 0, result.output
    assert "not recorded" in result.stderr and "database is locked" in result.stderr
    assert len(run_ids(url)) == 1


def test_a_postgresql_history_records_runs(
    tmp_path: Path, postgres: postgres_server.Server
) -> None:
    with postgres_server.fresh_schema(postgres) as url:
        report = tmp_path / "r.json"
        result = invoke("run", str(fixture(tmp_path)), "-o", str(report), "--history", url)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        assert run_ids(url) == [json.loads(report.read_text())["run_id"]]


def test_run_and_merge_write_every_output_before_the_history_is_touched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentic_evals.history import recorder

    expected: list[Path] = []
    seen: list[bool] = []

    def record_quietly(report: Any, url: str | None) -> None:
        seen.append(all(path.is_file() for path in expected))

    monkeypatch.setattr(recorder, "record_quietly", record_quietly)
    path = str(fixture(tmp_path))
    shards = [tmp_path / f"shard-{k}.json" for k in (1, 2)]
    for k, shard in enumerate(shards, start=1):
        expected[:] = [shard, tmp_path / f"shard-{k}.xml"]
        argv = ["run", path, "--shard", f"{k}/2", "-o", str(shard), "--junit-xml", str(expected[1])]
        assert invoke(*argv, "--report-only").exit_code == 0
    expected[:] = [tmp_path / "merged.json", tmp_path / "merged.md"]
    merge = ["merge", *map(str, shards), "-o", str(expected[0]), "--markdown", str(expected[1])]
    assert invoke(*merge).exit_code == 0
    assert seen == [True, True, True]
