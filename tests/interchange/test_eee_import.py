"""``import eee``: envelopes from other tools stored as imported results, on SQLite and on
PostgreSQL; deduplicated by evaluation_id; a changed measurement is a named conflict
(exit 1); this tool's own exports are recognised as their runs; imported results are
never exported again as this tool's own."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from eee_helpers import exported, invoke
from history_helpers import variant, write_reports

from agentic_evals.history.access import open_history


@pytest.fixture
def envelope_dir(base_report: dict[str, Any], tmp_path: Path) -> Path:
    """One run exported by another history: an envelope and its instance file."""
    (path,) = write_reports(tmp_path / "reports", variant(base_report, "foreign-run", 7))
    out = tmp_path / "envelopes"
    assert invoke("export", "eee", str(path), "--org", "Other Org", "-o", str(out)).exit_code == 0
    return out


def envelope_of(folder: Path) -> tuple[Path, dict[str, Any]]:
    (path,), _ = exported(folder)
    return path, json.loads(path.read_text())


def edited(folder: Path, name: str, change: Any) -> Path:
    _, document = envelope_of(folder)
    document = copy.deepcopy(document)
    change(document)
    target = folder.parent / "edited" / name
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(document))
    return target


def test_round_trip_deduplication_and_conflict(history_url: str, envelope_dir: Path) -> None:
    path, document = envelope_of(envelope_dir)
    first = invoke("import", "eee", str(envelope_dir), "--history", history_url, "-o", "-")
    assert first.exit_code == 0, first.output
    receipt = json.loads(first.stdout)
    assert (receipt["imported"], receipt["rejected"]) == (1, 0)  # the .jsonl file is not read
    assert receipt["files"] == [
        {"path": str(path), "evaluation_id": document["evaluation_id"], "status": "imported",
         "message": None},
    ]  # fmt: skip
    listed = invoke("history", "imported", "--history", history_url, "-o", "-")
    (item,) = json.loads(listed.stdout)["imported"]
    assert item["evaluation_id"] == document["evaluation_id"]
    assert (item["source_organization_name"], item["result_count"]) == ("Other Org", 4)
    with open_history(history_url) as store:
        stored = store.query("SELECT envelope FROM imported_evaluations")[0]["envelope"]
        assert json.loads(stored) == document
        assert store.query("SELECT COUNT(*) AS n FROM runs")[0]["n"] == 0  # not a run of ours
    # The same measurement again, even re-exported by another organisation later: skipped.
    relabelled = edited(envelope_dir, "relabelled.json", lambda d: d.update(
        retrieved_timestamp="1900000000",
        source_metadata={**d["source_metadata"], "source_organization_name": "Renamed"},
    ))  # fmt: skip
    again = invoke("import", "eee", str(path), str(relabelled), "--history", history_url)
    assert again.exit_code == 0, again.output
    assert "0 imported, 2 already imported" in again.stdout
    # Another measurement under the same id: a conflict, named, and nothing stored.
    changed = edited(
        envelope_dir,
        "changed.json",
        lambda d: d["evaluation_results"][1]["score_details"].update(score=0.25),
    )
    conflict = invoke("import", "eee", str(changed), "--history", history_url)
    assert conflict.exit_code == 1
    assert f"conflict: {changed}: evaluation {document['evaluation_id']} is already imported" in (
        conflict.stdout
    )
    with open_history(history_url) as store:
        assert (
            json.loads(store.query("SELECT envelope FROM imported_evaluations")[0]["envelope"])[
                "evaluation_results"
            ][1]["score_details"]["score"]
            == 1.0
        )


def test_an_export_of_a_run_of_this_history_is_that_run(
    history_url: str, base_report: dict[str, Any], tmp_path: Path
) -> None:
    (report,) = write_reports(tmp_path / "reports", base_report)
    assert invoke("history", "import", str(report), "--history", history_url).exit_code == 0
    out = tmp_path / "out"
    argv = ["export", "eee", "last", "--org", "Us", "-o", str(out), "--history", history_url]
    assert invoke(*argv).exit_code == 0
    own = invoke("import", "eee", str(out), "--history", history_url)
    assert own.exit_code == 0, own.output
    assert f"already in the history as run {base_report['run_id']}" in own.stdout
    assert "0 imported, 0 already imported, 1 own run(s)" in own.stdout
    changed = edited(out, "changed.json", lambda d: d["evaluation_results"].pop())
    conflict = invoke("import", "eee", str(changed), "--history", history_url)
    assert conflict.exit_code == 1
    assert f"is run {base_report['run_id']} of this history, measured otherwise" in conflict.stdout
    with open_history(history_url) as store:
        assert store.query("SELECT COUNT(*) AS n FROM imported_evaluations")[0]["n"] == 0


def test_imported_results_are_never_exported_as_this_tools_own(
    history_url: str, envelope_dir: Path, base_report: dict[str, Any], tmp_path: Path
) -> None:
    _, document = envelope_of(envelope_dir)
    assert invoke("import", "eee", str(envelope_dir), "--history", history_url).exit_code == 0
    (report,) = write_reports(tmp_path / "reports", base_report)
    assert invoke("history", "import", str(report), "--history", history_url).exit_code == 0
    out = tmp_path / "out"
    every = invoke(
        "export", "eee", "--all", "--org", "Us", "-o", str(out), "--history", history_url
    )
    assert every.exit_code == 0, every.output
    assert "1 run(s) exported for Us; skipped 1 imported result(s)" in every.stdout
    (envelope,), _ = exported(out)
    assert base_report["run_id"] in envelope.name
    named = invoke(
        "export", "eee", document["evaluation_id"], "--org", "Us", "-o", str(tmp_path / "named"),
        "--history", history_url,
    )  # fmt: skip
    assert named.exit_code == 0, named.output
    assert "0 run(s) exported for Us; skipped 1 imported result(s)" in named.stdout
    assert exported(tmp_path / "named") == ([], [])
    # The envelope file itself, given as if it were a report: skipped as well.
    path, _ = envelope_of(envelope_dir)
    as_file = invoke("export", "eee", str(path), "--org", "Us", "-o", str(tmp_path / "file"))
    assert as_file.exit_code == 0, as_file.output
    assert "0 run(s) exported for Us; skipped 1 imported result(s)" in as_file.stdout
    assert exported(tmp_path / "file") == ([], [])


def break_version(d: dict[str, Any]) -> None:
    d["schema_version"] = "0.3.0"


def drop_source(d: dict[str, Any]) -> None:
    del d["source_metadata"]


def add_top_level_key(d: dict[str, Any]) -> None:
    d["comment"] = "not in the format"


def duplicate_result(d: dict[str, Any]) -> None:
    d["evaluation_results"].append(d["evaluation_results"][0])


def open_scale(d: dict[str, Any]) -> None:
    del d["evaluation_results"][1]["metric_config"]["max_score"]


def numeric_detail(d: dict[str, Any]) -> None:
    d["source_metadata"]["additional_details"]["cases"] = 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (break_version, "/schema_version: '0.3.0' is not 0.2.2"),
        (drop_source, "/source_metadata: Field required"),
        (add_top_level_key, "/comment: Extra inputs are not permitted"),
        (duplicate_result,
         "/evaluation_results: result 'hist.runner_selftest/readiness' is listed twice"),
        (open_scale,
         "/evaluation_results/1/metric_config: Value error, score_type continuous needs"),
        (numeric_detail,
         "/source_metadata/additional_details/cases: Input should be a valid string"),
    ],
)  # fmt: skip
def test_files_that_are_not_envelopes_are_rejected_with_a_pointer(
    envelope_dir: Path, tmp_path: Path, change: Any, message: str
) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    bad = edited(envelope_dir, "bad.json", change)
    good, _ = envelope_of(envelope_dir)
    result = invoke("import", "eee", str(bad), str(good), "--history", url)
    assert result.exit_code == 2, result.output
    assert f"rejected: {bad}: {message}" in result.stdout
    assert "1 imported" in result.stdout  # the valid file is still imported


def test_unreadable_and_non_json_files_are_rejected(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    not_json = tmp_path / "not.json"
    not_json.write_text("{ nope")
    result = invoke("import", "eee", str(not_json), str(tmp_path / "absent.json"), "--history", url)
    assert result.exit_code == 2
    assert f"{not_json}: not JSON" in result.stdout
    assert "absent.json: cannot read: No such file or directory" in result.stdout
