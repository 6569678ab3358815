"""The files written in the temporary folders during a run, as inotify reports them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agentic_evals import clock
from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Case
from agentic_evals.runner import fresh_files, stub_copies
from agentic_evals.runner.fresh_files import IN_Q_OVERFLOW, FreshFiles

STUB = "id,stub-content-0002\n"


def _watcher(tmp_path: Path, depth: int = 1) -> tuple[Path, FreshFiles]:
    folder = tmp_path / "tmp"
    (folder / "old").mkdir(parents=True)
    (folder / "before.txt").write_text("there before\n")
    tree = tmp_path / "skill"
    tree.mkdir()
    return folder, FreshFiles([(folder, depth)], "agentic-evals-", tree)


def test_what_is_created_written_moved_in_or_removed_is_reported_once(tmp_path: Path) -> None:
    folder, watcher = _watcher(tmp_path)
    try:
        assert watcher.changed() == []  # what was there before is no change
        (folder / "new.txt").write_text("x")
        (folder / "old" / "inner.txt").write_text("x")
        (tmp_path / "outside.txt").write_text("x")
        os.replace(tmp_path / "outside.txt", folder / "moved.txt")
        (folder / "before.txt").unlink()
        assert set(watcher.changed() or []) == {
            folder / "new.txt",
            folder / "old" / "inner.txt",
            folder / "moved.txt",
            folder / "before.txt",
        }
        assert watcher.changed() == []
    finally:
        watcher.close()


def test_a_folder_made_during_the_run_is_watched_and_read_but_not_deeper(tmp_path: Path) -> None:
    folder, watcher = _watcher(tmp_path)
    try:
        (folder / "made" / "deeper").mkdir(parents=True)
        (folder / "made" / "early.txt").write_text("x")
        assert folder / "made" / "early.txt" in (watcher.changed() or [])
        (folder / "made" / "late.txt").write_text("x")
        (folder / "made" / "deeper" / "deep.txt").write_text("x")
        assert watcher.changed() == [folder / "made" / "late.txt"]
    finally:
        watcher.close()


def test_the_runner_s_own_entries_and_the_tree_are_not_watched(tmp_path: Path) -> None:
    folder, watcher = _watcher(tmp_path)
    try:
        (folder / "agentic-evals-view-1").mkdir()
        (folder / "agentic-evals-view-1" / "upper.txt").write_text("x")
        (folder / "agentic-evals-spool").write_text("x")
        assert watcher.changed() == []
    finally:
        watcher.close()
    tree = tmp_path / "skill"
    inside = FreshFiles([(tree, 1)], "agentic-evals-", tree)
    try:
        (tree / "made.txt").write_text("x")
        assert inside.changed() == []
    finally:
        inside.close()


def test_a_lost_event_or_a_missing_watch_sends_the_caller_walking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, watcher = _watcher(tmp_path)
    try:
        watcher._event(-1, IN_Q_OVERFLOW, b"")
        assert watcher.changed() is None
    finally:
        watcher.close()
    monkeypatch.setattr(fresh_files, "MAX_WATCHES", 1)
    _, limited = _watcher(tmp_path / "second")
    try:
        assert limited.changed() is None  # "old/" could not be watched
    finally:
        limited.close()


def _finder(tmp_path: Path, temporary: Path) -> tuple[stub_copies.StubCopyFinder, Case]:
    tree = tmp_path / "skill"
    (tree / "fixtures").mkdir(parents=True)
    (tree / "fixtures" / "stub.csv").write_text(STUB)
    case = Case.model_validate(
        {"name": "c", "type": "positive", "command": ["true"], "expected": {"exit_code": 0}}
    )
    layout = layout_for(tree / "fixtures", None)
    env = {"TMPDIR": str(temporary)}
    finder = stub_copies.StubCopyFinder(layout, [case], env, clock.utc_now().timestamp())
    return finder, case


@pytest.mark.parametrize("kernel", [True, False], ids=["inotify", "walk"])
def test_a_copy_made_in_a_temporary_folder_during_the_run_is_found_until_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kernel: bool
) -> None:
    if not kernel:

        def refused(*_: object) -> None:
            raise OSError("no inotify here")

        monkeypatch.setattr(stub_copies, "FreshFiles", refused)
    temporary = tmp_path / "tmpdir"
    (temporary / "sub").mkdir(parents=True)
    finder, case = _finder(tmp_path, temporary)
    try:
        assert finder.before_trial(case).watched == {}
        copy = temporary / "sub" / "stub-copy.csv"
        shutil.copy(tmp_path / "skill" / "fixtures" / "stub.csv", copy)
        assert finder.before_trial(case).watched == {str(copy): "fixtures/stub.csv"}
        assert finder.before_trial(case).watched == {str(copy): "fixtures/stub.csv"}  # kept
        copy.write_text("other content\n")
        assert finder.before_trial(case).watched == {}
    finally:
        finder.close()
