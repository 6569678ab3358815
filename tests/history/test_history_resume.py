"""A resumed run is one run in the history, on both backends: recording its report forgets
the runs it continues, their reports are not recorded again in any order, and a history of
an earlier schema that holds both is migrated to one run."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from history_helpers import ALPHA, first_version_history, record_all, variant, write_reports

from agentic_evals.cli import cli
from agentic_evals.history.access import open_history
from agentic_evals.history.errors import UnknownRunError
from agentic_evals.history.queries import list_runs, show_run
from agentic_evals.history.schema import current_version, migrate
from agentic_evals.history.trend import trend


def resumed(
    base: dict[str, Any], run_id: str, minute: int, continued: Sequence[str]
) -> dict[str, Any]:
    """``base`` as the report of a run that resumed the runs ``continued`` (the last one
    directly), its trials kept from the first of them."""
    report = variant(base, run_id, minute)
    for case in report["cases"]:
        for trial in case["trials"]:
            trial.update(reused=True, reused_from=continued[0])
    report["resumed_from"] = {
        "path": "report.json",
        "run_id": continued[-1],
        "report_sha256": "0" * 64,
        "runs": list(continued),
        "kept_trials": sum(len(case["trials"]) for case in report["cases"]),
        "changed_cases": [],
        "retry_infra": False,
    }
    return report


def interrupted(base: dict[str, Any], run_id: str, minute: int) -> dict[str, Any]:
    report = variant(base, run_id, minute)
    report["interrupted"] = "SIGTERM"
    return report


def run_ids(url: str) -> list[str]:
    with open_history(url) as store:
        return [run.run_id for run in list_runs(store).runs]


def test_a_resumed_run_takes_the_place_of_the_run_it_resumed(
    history_url: str, base_report: dict[str, Any]
) -> None:
    first = interrupted(base_report, "run-x", 1)
    other = variant(base_report, "run-o", 2)
    again = resumed(base_report, "run-y", 3, ["run-x"])
    statuses = [o.status for o in record_all(history_url, first, other, again)]
    assert statuses == ["recorded", "recorded", "recorded"]
    assert run_ids(history_url) == ["run-y", "run-o"]
    with open_history(history_url) as store:
        assert show_run(store, "run-y").run.resumed_from == "run-x"
        with pytest.raises(UnknownRunError):
            show_run(store, "run-x")
        # The kept trials count once in the case's trend, not once per run that holds them.
        assert [point.run_id for point in trend(store, ALPHA).points] == ["run-o", "run-y"]
        for table in ("runs", "cases", "claims", "claim_cases", "reports"):
            rows = store.query(f"SELECT COUNT(*) AS n FROM {table} WHERE run_id = 'run-x'")
            assert rows[0]["n"] == 0, table


def test_the_report_of_a_resumed_run_is_not_recorded_after_the_run_that_resumed_it(
    history_url: str, base_report: dict[str, Any]
) -> None:
    first = interrupted(base_report, "run-x", 1)
    again = resumed(base_report, "run-y", 3, ["run-x"])
    outcomes = record_all(history_url, again, first, first)
    assert [o.status for o in outcomes] == ["recorded", "superseded", "superseded"]
    assert run_ids(history_url) == ["run-y"]


def test_a_chain_of_resumed_runs_is_one_run_even_with_a_link_missing(
    history_url: str, base_report: dict[str, Any]
) -> None:
    first = interrupted(base_report, "run-x", 1)
    middle = resumed(base_report, "run-y", 2, ["run-x"])
    middle["interrupted"] = "SIGTERM"
    last = resumed(base_report, "run-z", 3, ["run-x", "run-y"])
    # The middle report was lost: the last one still names the first run it continues.
    record_all(history_url, first, last)
    assert run_ids(history_url) == ["run-z"]
    assert [o.status for o in record_all(history_url, middle)] == ["superseded"]
    assert run_ids(history_url) == ["run-z"]


def test_history_import_rebuilds_one_run_in_any_order(
    tmp_path: Path, history_url: str, base_report: dict[str, Any]
) -> None:
    first = interrupted(base_report, "run-x", 1)
    again = resumed(base_report, "run-y", 3, ["run-x"])
    paths = write_reports(tmp_path, again, first)
    out = tmp_path / "import.json"
    result = CliRunner().invoke(
        cli,
        ["history", "import", *map(str, paths), "--history", history_url, "-o", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    receipt = json.loads(out.read_text())
    assert [entry["status"] for entry in receipt["reports"]] == ["recorded", "superseded"]
    assert receipt["superseded"] == 1 and receipt["recorded"] == 1
    assert "run run-x was resumed; the run that resumed it is kept" in result.output
    assert "1 superseded by resumed runs" in result.output
    listing = CliRunner().invoke(
        cli, ["history", "list", "--history", history_url], catch_exceptions=False
    )
    assert "1 run(s)" in listing.output and "resumed run-x" in listing.output


def test_a_history_of_schema_version_2_holding_both_runs_is_migrated_to_one_run(
    history_url: str, base_report: dict[str, Any]
) -> None:
    # Recorded by an agentic-evals that knew nothing of resumed runs.
    recorded = (
        interrupted(base_report, "run-x", 1),
        resumed(copy.deepcopy(base_report), "run-y", 3, ["run-x"]),
        variant(base_report, "run-o", 2),
    )
    with first_version_history(history_url, *recorded) as store:
        migrate(store, target=2)
        assert current_version(store) == 2
    assert run_ids(history_url) == ["run-y", "run-o"]
    with open_history(history_url) as store:
        assert show_run(store, "run-y").run.resumed_from == "run-x"
        assert show_run(store, "run-o").run.resumed_from is None
