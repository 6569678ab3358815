"""compare takes recorded runs beside report files: run ids, unique prefixes, last and last~N."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from history_helpers import ALPHA, BETA, HISTORY_FIXTURE, record_all, variant

from agentic_evals.cli import cli
from agentic_evals.compare.sources import ReportSourceError, resolve_report


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_last_and_last_1_compare_the_two_newest_runs(
    base_report: dict[str, Any], history_url: str, tmp_path: Path
) -> None:
    older = variant(base_report, "run-a1", 1)
    newer = variant(base_report, "run-b2", 2, outcomes={ALPHA: "FAIL"})
    record_all(history_url, older, newer)
    out = tmp_path / "compare.json"
    result = invoke("compare", "last~1", "last", "--history", history_url, "-o", str(out))
    assert result.exit_code == 1, result.output
    document = json.loads(out.read_text())
    assert document["regressed"] == [ALPHA] and document["unchanged"] == [BETA]
    assert (document["base"]["source"], document["head"]["source"]) == ("run run-a1", "run run-b2")
    assert (document["base"]["run_id"], document["head"]["run_id"]) == ("run-a1", "run-b2")
    # The other way round, the failure is fixed; run ids and unique prefixes name runs too.
    back = invoke("compare", "run-b", "run-a1", "--history", history_url, "--report-only")
    assert back.exit_code == 0, back.output
    assert "fixed (1): hist::alpha" in back.stdout


def test_a_run_reference_that_names_no_single_run_is_not_comparable(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    record_all(url, variant(base_report, "run-a1", 1), variant(base_report, "run-a2", 2))
    for args, reason in [
        (("last~2", "last"), "no run last~2: the history holds 2 run(s)"),
        (("run-a", "last"), "run prefix 'run-a' matches 2 runs"),
        (("last", "run-zz"), "no run 'run-zz' in the history"),
        (("gone.json", "last"), "gone.json: cannot read"),
    ]:
        result = invoke("compare", *args, "--history", url)
        assert result.exit_code == 2, (args, result.output)
        assert "not comparable" in result.stderr and reason in result.stderr
        assert "Traceback" not in result.output


def test_a_history_that_cannot_be_used_is_not_comparable(tmp_path: Path) -> None:
    result = invoke("compare", "last~1", "last", "--history", "mysql://somewhere/db")
    assert result.exit_code == 2 and "not comparable" in result.stderr
    empty = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    result = invoke("compare", "last~1", "last", "--history", empty)
    assert result.exit_code == 2 and "the history holds 0 run(s)" in result.stderr


def test_runs_recorded_by_run_compare_through_the_environment_history(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    env = {"AGENTIC_EVALS_HISTORY": url}
    fixture = tmp_path / "agentic_eval.json"
    fixture.write_text(json.dumps(HISTORY_FIXTURE))
    assert invoke("run", str(fixture), "--progress", "none", env=env).exit_code == 0
    broken = json.loads(json.dumps(HISTORY_FIXTURE))
    broken["cases"][0]["command"] = ["bash", "-c", "echo ko"]
    fixture.write_text(json.dumps(broken))
    assert invoke("run", str(fixture), "--progress", "none", env=env).exit_code == 1
    result = invoke("compare", "last~1", "last", env=env)
    assert result.exit_code == 1, result.output
    assert "regressed (1): hist::alpha" in result.stdout


def test_the_seam_reads_files_first_and_names_where_each_report_came_from(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    record_all(url, variant(base_report, "run-a1", 1))
    path = tmp_path / "last"  # a file named like a run reference is a file
    path.write_text(json.dumps(base_report))
    assert resolve_report(str(path), url).source == str(path)
    named = resolve_report("last", url)
    assert (named.source, named.report.run_id) == ("run run-a1", "run-a1")
    with pytest.raises(ReportSourceError, match="last~1"):
        resolve_report("last~1", url)
