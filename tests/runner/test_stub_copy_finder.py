"""Finding a skill's stubs' copies outside its tree: digests, candidates, bounds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentic_evals import clock
from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Case
from agentic_evals.runner import stub_digests
from agentic_evals.runner.stub_copies import StubCopies, StubCopyFinder
from agentic_evals.runner.stub_digests import copies_among, folder_files
from agentic_evals.runner.trace_record import TraceRecorder
from agentic_evals.runner.trace_strace_files import absorb

STUB = "id,stub-content-0001\n"


def _tree(root: Path) -> Path:
    tree = root / "skill"
    for folder in ("fixtures/deep", "Test-Fixtures", "data", "node_modules/fixtures"):
        (tree / folder).mkdir(parents=True)
    (tree / "fixtures" / "stub.csv").write_text(STUB)
    (tree / "fixtures" / "deep" / "other.csv").write_text("other\n")
    (tree / "fixtures" / "empty.txt").write_text("")
    (tree / "Test-Fixtures" / "look.csv").write_text("look-alike\n")
    (tree / "data" / "plain.csv").write_text("not a stub\n")
    (tree / "node_modules" / "fixtures" / "vendored.csv").write_text("vendored\n")
    return tree


def _case(command: list[str], env: dict[str, str] | None = None, name: str = "c") -> Case:
    return Case.model_validate(
        {
            "name": name,
            "type": "positive",
            "command": command,
            "env": env or {},
            "expected": {"exit_code": 0},
        }
    )


def _finder(tree: Path, *cases: Case, env: dict[str, str] | None = None) -> StubCopyFinder:
    layout = layout_for(tree / "fixtures", None)
    return StubCopyFinder(layout, cases, env or {}, clock.utc_now().timestamp())


def test_digests_cover_every_stub_location_but_not_empty_files_or_other_folders(
    tmp_path: Path,
) -> None:
    digests = stub_digests.stub_digests(_tree(tmp_path))
    assert sorted(digests.by_digest.values()) == [
        "Test-Fixtures/look.csv",
        "fixtures/deep/other.csv",
        "fixtures/stub.csv",
    ]
    assert 0 not in digests.sizes


def test_digests_are_bounded_in_files_and_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _tree(tmp_path)
    monkeypatch.setattr(stub_digests, "MAX_STUB_BYTES", len(STUB) - 1)
    assert "fixtures/stub.csv" not in stub_digests.stub_digests(tree).by_digest.values()
    monkeypatch.undo()
    monkeypatch.setattr(stub_digests, "MAX_STUB_FILES", 1)
    assert len(stub_digests.stub_digests(tree).by_digest) == 1


def test_a_candidate_of_another_size_is_not_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digests = stub_digests.stub_digests(_tree(tmp_path))
    same, longer = tmp_path / "same.csv", tmp_path / "longer.csv"
    same.write_text(STUB)
    longer.write_text(STUB + "x")
    hashed: list[Path] = []
    real = stub_digests.file_digest

    def spy(path: Path, size: int) -> str | None:
        hashed.append(path)
        return real(path, size)

    monkeypatch.setattr(stub_digests, "file_digest", spy)
    assert copies_among([same, longer], digests) == {str(same): "fixtures/stub.csv"}
    assert hashed == [same]


def test_a_file_of_a_stub_s_size_with_other_content_is_no_copy(tmp_path: Path) -> None:
    digests = stub_digests.stub_digests(_tree(tmp_path))
    twin = tmp_path / "twin.csv"
    twin.write_text(STUB.replace("0001", "0002"))
    assert copies_among([twin], digests) == {}


def test_folder_files_keeps_only_files_changed_since_and_goes_one_level_down(
    tmp_path: Path,
) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    for path in ("new.txt", "sub/new.txt", "sub/deeper/new.txt", "old.txt"):
        (tmp_path / path).write_text("x")
    since = clock.utc_now().timestamp() + 60
    for path in ("new.txt", "sub/new.txt", "sub/deeper/new.txt"):
        os.utime(tmp_path / path, (since + 1, since + 1))
    # ``since`` lies in the future: only the files whose mtime was moved past it are fresh.
    found = {p.relative_to(tmp_path).as_posix() for p in folder_files(tmp_path, 1, since)}
    assert found == {"new.txt", "sub/new.txt"}


def test_folder_files_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(10):
        (tmp_path / f"f{index}").write_text("x")
    monkeypatch.setattr(stub_digests, "MAX_FOLDER_ENTRIES", 4)
    assert len(folder_files(tmp_path)) == 4


def test_named_paths_are_resolved_expanded_and_kept_outside_the_tree(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    out = tmp_path / "out"
    (out / "folder").mkdir(parents=True)
    for name in ("a.csv", "b.csv", "folder/c.csv", "folder/d.csv"):
        (out / name).write_text(STUB)
    (out / "link.csv").symlink_to(out / "a.csv")
    case = _case(
        [
            "bash",
            "-c",
            f'run "$IN" {out}/b.cs? --input={out}/link.csv < ~/h.csv; run {out}/folder '
            f"../data/plain.csv $UNKNOWN/x",
        ],
        env={"IN": "../../out/a.csv"},
    )
    home = tmp_path / "home"
    home.mkdir()
    (home / "h.csv").write_text(STUB)
    named = _finder(tree, case, env={"HOME": str(home)}).named(case)
    assert set(named) == {
        out / "a.csv",
        out / "b.csv",
        out / "folder" / "c.csv",
        out / "folder" / "d.csv",
        home / "h.csv",
    }


def test_before_trial_tells_the_copies_the_case_names_from_those_others_name(
    tmp_path: Path,
) -> None:
    tree = _tree(tmp_path)
    mine, theirs = tmp_path / "mine.csv", tmp_path / "theirs.csv"
    for path in (mine, theirs):
        path.write_text(STUB)
    own = _case(["run", str(mine)], name="own")
    other = _case(["cp", "x", str(theirs)], name="other")
    copies = _finder(tree, other, own).before_trial(own)
    assert copies.watched == {str(mine): "fixtures/stub.csv", str(theirs): "fixtures/stub.csv"}
    assert copies.named == {str(mine): "fixtures/stub.csv"}


def test_no_stub_means_nothing_is_looked_for(tmp_path: Path) -> None:
    tree = tmp_path / "skill"
    (tree / "fixtures").mkdir(parents=True)
    elsewhere = tmp_path / "x.csv"
    elsewhere.write_text(STUB)
    case = _case(["run", str(elsewhere)])
    assert _finder(tree, case).before_trial(case) == StubCopies({}, {})


def test_the_runner_s_own_files_are_never_candidates(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / "fixtures" / "own.py").write_bytes(Path(stub_digests.__file__).read_bytes())
    case = _case(["python3", stub_digests.__file__, "/proc/self/status"])
    assert _finder(tree, case).before_trial(case).watched == {}


def test_seen_names_opened_copies_by_path_or_inode_then_named_ones(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    copy, named, hard = tmp_path / "copy.csv", tmp_path / "named.csv", tmp_path / "hard.csv"
    copy.write_text(STUB)
    named.write_text(STUB)
    hard.hardlink_to(copy)
    copies = StubCopies(
        {str(copy): "fixtures/stub.csv", str(named): "fixtures/stub.csv"},
        {str(named): "fixtures/stub.csv"},
    )
    assert copies.seen([str(hard), str(tree / "data" / "plain.csv")], tree) == [
        f"opened {copy}, a copy of fixtures/stub.csv",
        f"names {named}, a copy of fixtures/stub.csv",
    ]
    assert copies.seen([], tree) == [f"names {named}, a copy of fixtures/stub.csv"]
    assert StubCopies({}, {}).seen([str(hard)], tree) == []


def test_strace_records_opens_of_watched_files_outside_the_tree_only(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    lines = [
        '7 openat(AT_FDCWD</x>, "/tmp/c.csv", O_RDONLY) = 3</tmp/c.csv>\n',
        '7 openat(AT_FDCWD</x>, "/tmp/other", O_RDONLY) = 3</tmp/other>\n',
    ]
    recorder = TraceRecorder("strace")
    absorb(lines, recorder, tree, tree, frozenset({"/tmp/c.csv"}))
    assert list(recorder.opened) == ["/tmp/c.csv"]
    unwatched = TraceRecorder("strace")
    absorb(lines, unwatched, tree, tree)
    assert unwatched.opened == {}


def test_the_runner_s_own_temporary_entries_are_passed_over(
    tmp_path: Path,
) -> None:
    (tmp_path / "agentic-evals-view-x").mkdir()
    (tmp_path / "agentic-evals-view-x" / "inside.txt").write_text("x")
    (tmp_path / "agentic-evals-runs").write_text("x")
    (tmp_path / "theirs").mkdir()
    (tmp_path / "theirs" / "kept.txt").write_text("x")
    found = {p.name for p in folder_files(tmp_path, 1, None, "agentic-evals-")}
    assert found == {"kept.txt"}
    assert "inside.txt" in {p.name for p in folder_files(tmp_path, 1)}
