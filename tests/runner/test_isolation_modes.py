"""Isolation modes: chosen from what the case asks and what the kernel allows, and reported."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from isolation_helpers import case, fixture, needs_overlay, run

from agentic_evals.reports.model import Report
from agentic_evals.runner.isolation.views import UPPER_PREFIX

WRITES = "mkdir -p out && echo '{\"n\": 1}' > out/n.json"


def without(mechanisms: str) -> dict[str, str]:
    """The runner's environment with ``mechanisms`` turned off."""
    return {**os.environ, "AGENTIC_EVALS_DISABLE": mechanisms}


def view_warnings(report: Report) -> list[str]:
    """The summary's warnings about views (not those about a machine without cgroups)."""
    assert report.isolation is not None
    return [w for w in report.isolation.warnings if "isolation" in w or "view" in w]


@needs_overlay
def test_auto_gives_every_trial_an_overlay_and_the_tree_is_left_alone(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    check = {"path": "out/n.json", "json_pointer": "/n", "equals": 1}
    path = fixture(skill, [case("writes", WRITES, expected={"artifacts": [check]})])
    report = run(path)
    assert report.readiness == "READY", report.cases[0].problems
    trials = report.cases[0].trials
    assert [(t.isolation.mode, t.isolation.requested) for t in trials if t.isolation] == [
        ("overlay", "auto")
    ] * 2
    assert all(t.workspace_changes and t.workspace_changes.added == ["out", "out/n.json"]
               for t in trials)  # fmt: skip
    assert not (skill / "out").exists()  # nothing littered the skill tree
    assert report.isolation is not None and report.isolation.modes == {"overlay": 2}
    assert view_warnings(report) == []


@needs_overlay
def test_changes_of_a_fixture_in_fixtures_are_relative_to_it(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    script = "touch here.txt ../top.txt"
    path = fixture(skill / "fixtures", [case("edits", script)], trials=1)
    (skill / "SKILL.md").write_text("# skill\n")
    trial = run(path).cases[0].trials[0]
    assert trial.workspace_changes is not None
    assert trial.workspace_changes.added == ["../top.txt", "here.txt"]
    assert not (skill / "top.txt").exists()


def test_without_overlays_auto_runs_on_the_shared_tree_and_says_why(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    path = fixture(skill, [case("writes", WRITES)])
    report = run(path, environ=without("overlay"))
    assert [t.isolation.mode for t in report.cases[0].trials if t.isolation] == ["none", "none"]
    assert (skill / "out" / "n.json").exists()
    summary = report.isolation
    assert summary is not None and summary.shared_tree_trials == 2
    assert any(note.startswith("no private view") for note in summary.notes)


def test_without_overlays_a_workspace_is_copied(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    (skill / "data").mkdir(parents=True)
    (skill / "data" / "in.txt").write_text("in\n")
    path = fixture(skill, [case("reads", "cat in.txt", workspace={"input": "data"})])
    report = run(path, environ=without("overlay"))
    trials = report.cases[0].trials
    assert [t.isolation.mode for t in trials if t.isolation] == ["copy", "copy"]
    assert [t.stdout for t in trials] == ["in\n", "in\n"]
    assert view_warnings(report) == []


def test_an_overlay_asked_for_and_not_available_is_a_warning(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    path = fixture(skill, [case("writes", WRITES)], isolation="overlay")
    report = run(path, environ=without("overlay"))
    trial = report.cases[0].trials[0]
    assert trial.isolation is not None and trial.isolation.mode == "none"
    assert trial.isolation.unavailable[0].startswith("isolation overlay is not available")
    assert report.isolation is not None
    assert view_warnings(report) == [f"2 trial(s): {trial.isolation.unavailable[0]}"]


def test_isolation_none_is_the_shared_tree_as_asked(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    counted = case("counts", "echo x >> count.txt; wc -l < count.txt")
    report = run(fixture(skill, [counted], trials=3, isolation="none"))
    assert [t.stdout.strip() for t in report.cases[0].trials] == ["1", "2", "3"]
    assert report.isolation is not None and report.isolation.shared_tree_trials == 3
    assert view_warnings(report) == []


@needs_overlay
def test_the_case_setting_wins_over_the_fixture(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    own = case("own", "touch mine.txt", isolation="overlay")
    path = fixture(skill, [own, case("inherits", "touch shared.txt")], isolation="none")
    report = run(path)
    modes = [[t.isolation.mode for t in c.trials if t.isolation] for c in report.cases]
    assert modes == [["overlay", "overlay"], ["none", "none"]]
    assert (skill / "shared.txt").exists() and not (skill / "mine.txt").exists()


@needs_overlay
def test_keep_workspaces_keeps_the_upper_layer_of_the_tree(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    (skill / "keep.txt").parent.mkdir(parents=True)
    (skill / "keep.txt").write_text("lower\n")
    script = "echo upper > keep.txt; touch new.txt"
    report = run(fixture(skill, [case("edits", script)], trials=1), keep_workspaces=True)
    kept = report.cases[0].trials[0].workspace_path
    assert kept is not None and Path(kept).name.startswith(UPPER_PREFIX)
    try:
        assert (Path(kept) / "keep.txt").read_text() == "upper\n"
        assert (Path(kept) / "new.txt").exists()
        assert (skill / "keep.txt").read_text() == "lower\n"
    finally:
        shutil.rmtree(kept)


def test_the_report_validates(tmp_path: Path, assert_valid_report: object) -> None:
    report = run(fixture(tmp_path / "skill", [case("plain", "true")]))
    assert callable(assert_valid_report)
    assert_valid_report(json.loads(report.model_dump_json(by_alias=True)))


@needs_overlay
def test_a_trial_that_cleans_the_temporary_directory_cannot_reach_the_tree(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    (skill / "keep.txt").parent.mkdir(parents=True)
    (skill / "keep.txt").write_text("kept\n")
    # The trial's own view is under the temporary directory it can see: its lower layer too.
    views = '"${TMPDIR:-/tmp}"/agentic-evals-view-*/lower-*'
    wipe = case("wipes", f'for d in {views}; do rm -f "$d/keep.txt"; done; true')
    report = run(fixture(skill, [wipe], trials=1))
    assert report.cases[0].outcome == "PASS"
    assert (skill / "keep.txt").read_text() == "kept\n"
