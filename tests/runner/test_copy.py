"""The copy of a workspace: what a snapshot holds, what is hashed, and a copy that fails."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from agentic_evals.runner.isolation import copy as workspace


def test_snapshot_and_changes(tmp_path: Path) -> None:
    source, copied = tmp_path / "source", tmp_path / "copy"
    for root in (source, copied):
        root.mkdir()
        (root / "a").write_text("1")
        (root / "same").write_text("kept")
        (root / "d").mkdir()
        (root / "l").symlink_to("a")
    before = workspace.snapshot(copied)
    assert before["a"].kind == "file" and before["a"].size == 1
    assert before["d"].kind == "dir" and before["l"].kind == "symlink"
    (copied / "a").write_text("2")  # same size, other content: found by hashing
    (copied / "same").write_text("kept")  # rewritten with the same bytes: not a change
    (copied / "l").unlink()
    (copied / "l").symlink_to("d")
    (copied / "d" / "x").write_text("")
    found = workspace.changes(before, workspace.snapshot(copied), copied, source)
    assert found.model_dump() == {"added": ["d/x"], "changed": ["a", "l"], "removed": []}


def test_only_a_file_whose_stat_changed_at_the_same_size_is_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "source"
    (source / "d").mkdir(parents=True)
    for number in range(50):
        (source / "d" / f"f{number}").write_text(f"file {number:02d}")
    copied = workspace.create(source).root
    before = workspace.snapshot(copied)
    hashed: list[str] = []
    real = workspace.file_digest

    def counted(path: Path) -> str | None:
        hashed.append(path.relative_to(path.parents[1]).as_posix())
        return real(path)

    monkeypatch.setattr(workspace, "file_digest", counted)
    (copied / "d" / "f1").write_text("file 99")  # same size: only its content can tell
    (copied / "d" / "f2").write_text("longer content")  # its size tells, unhashed
    (copied / "d" / "f3").write_text("file 03")  # rewritten with the same bytes
    found = workspace.changes(before, workspace.snapshot(copied), copied, source)
    assert found.changed == ["d/f1", "d/f2"]
    # Each of the two same-size files is hashed in the copy and in its source, nothing else.
    assert sorted(hashed) == ["d/f1", "d/f1", "d/f3", "d/f3"]
    workspace.remove(copied)


def test_a_copy_that_fails_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "skill" / "data"
    (root / "sub").mkdir(parents=True)
    (root / "log.txt").write_text("orig\n")
    (root / "sub" / "gone.txt").write_text("bye\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    calls = {"n": 0}
    real = workspace._copy_file

    def fails_on_the_second(source: str, destination: Path) -> bool:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(5, "Input/output error")
        return real(source, destination)

    monkeypatch.setattr(workspace, "_copy_file", fails_on_the_second)
    with pytest.raises(workspace.WorkspaceUnavailableError, match="Input/output error"):
        workspace.create(root)
    assert list(scratch.iterdir()) == []
