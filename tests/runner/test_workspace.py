"""Workspaces (SPEC 3.4): a fresh private view per trial, what changed, and asserting on it.

Every test runs twice: with an overlay of the input (``isolation: overlay``,
skipped where overlays cannot be mounted) and with a copy (``isolation: copy``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from isolation_helpers import fixture, overlay_problem

from agentic_evals import codes
from agentic_evals.cli import cli
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner.isolation import copy as workspace

APPEND = "cat log.txt; echo more >> log.txt; pwd >&2"
MODE = "copy"


@pytest.fixture(
    autouse=True,
    params=[
        pytest.param(
            "overlay",
            marks=pytest.mark.skipif(
                overlay_problem() is not None, reason=f"no overlays: {overlay_problem()}"
            ),
        ),
        "copy",
    ],
)
def _mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(f"{__name__}.MODE", request.param)
    return str(request.param)


def write(
    skill: Path,
    cases: list[dict[str, Any]],
    trials: int = 2,
    ws: str | None = "data",
) -> Path:
    top = {} if ws is None else {"workspace": {"input": ws}, "isolation": MODE}
    return fixture(skill, cases, trials, **top)


def case(name: str, script: str, **expected: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": "positive",
        "command": ["bash", "-c", script],
        "expected": {"exit_code": 0, **expected},
    }


def data(skill: Path, name: str = "data") -> Path:
    root = skill / name
    (root / "sub").mkdir(parents=True)
    (root / "log.txt").write_text("orig\n")
    (root / "sub" / "keep.txt").write_text("keep\n")
    (root / "sub" / "gone.txt").write_text("gone\n")
    return root


def run(path: Path, **options: Any) -> Any:
    loaded = load_fixture(path)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


def trial_dirs(report: Any) -> list[Path]:
    return [Path(t.stderr.strip()) for c in report.cases for t in c.trials]


def test_each_trial_gets_a_fresh_copy_and_the_input_is_untouched(tmp_path: Path) -> None:
    root = data(tmp_path)
    report = run(write(tmp_path, [case("append", APPEND, stdout_contains=["orig"])], trials=3))
    assert report.readiness == "READY"
    assert [t.stdout for t in report.cases[0].trials] == ["orig\n"] * 3
    assert (root / "log.txt").read_text() == "orig\n"
    dirs = trial_dirs(report)
    assert len(set(dirs)) == 3
    assert all(d.name.startswith(workspace.PREFIX) and root not in d.parents for d in dirs)


def test_artifacts_resolve_in_the_copy(tmp_path: Path) -> None:
    root = data(tmp_path)
    check = {"path": "out/result.json", "json_pointer": "/ok", "equals": True}
    made = case("writes", "mkdir out && echo '{\"ok\": true}' > out/result.json", artifacts=[check])
    report = run(write(tmp_path, [made]))
    assert report.readiness == "READY", report.cases[0].problems
    assert not (root / "out").exists() and not (tmp_path / "out").exists()
    assert set(report.cases[0].trials[0].artifact_hashes) == {"out/result.json"}


def test_workspace_changes_are_recorded(tmp_path: Path) -> None:
    data(tmp_path)
    script = "echo more >> log.txt; rm sub/gone.txt; mkdir new; touch new/a.txt"
    report = run(write(tmp_path, [case("mutate", script)]))
    changes = report.cases[0].trials[0].workspace_changes
    assert changes.model_dump() == {
        "added": ["new", "new/a.txt"],
        "changed": ["log.txt"],
        "removed": ["sub/gone.txt"],
    }


def test_the_shared_tree_records_no_changes(tmp_path: Path) -> None:
    document = write(tmp_path, [case("plain", "touch here")], ws=None)
    shared = json.loads(document.read_text())
    document.write_text(json.dumps({**shared, "isolation": "none"}))
    report = run(document)
    trial = report.cases[0].trials[0]
    assert trial.workspace_changes is None and trial.workspace_path is None
    assert trial.isolation is not None and trial.isolation.mode == "none"
    assert (tmp_path / "here").exists()


def test_the_mode_is_reported(tmp_path: Path) -> None:
    data(tmp_path)
    report = run(write(tmp_path, [case("plain", "true")]))
    records = [t.isolation for t in report.cases[0].trials]
    assert [(r.mode, r.requested) for r in records if r] == [(MODE, MODE)] * 2
    assert report.isolation is not None and report.isolation.modes == {MODE: 2}


def test_expected_workspace_changes_pass(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    data(tmp_path)
    script = "echo more >> log.txt; rm sub/gone.txt; mkdir -p new/deep; touch new/deep/a.txt"
    wanted = {"added": ["new/**/*.txt"], "changed": ["*.txt"], "removed": ["sub/*"], "only": True}
    report = run(write(tmp_path, [case("mutate", script, workspace_changes=wanted)]))
    assert report.readiness == "READY", report.cases[0].problems
    assert_valid_report(json.loads(report.model_dump_json(by_alias=True)))


def test_expected_workspace_changes_missing_pattern(tmp_path: Path) -> None:
    data(tmp_path)
    wanted = {"added": ["report.json"], "removed": ["sub/gone.txt"]}
    report = run(write(tmp_path, [case("mutate", "touch other.json", workspace_changes=wanted)]))
    problems = report.cases[0].trials[0].problems
    assert report.cases[0].outcome == "FAIL"
    assert [(p.code, p.oracle) for p in problems] == [
        (codes.WORKSPACE_CHANGE_MISSING, "/expected/workspace_changes/added/0"),
        (codes.WORKSPACE_CHANGE_MISSING, "/expected/workspace_changes/removed/0"),
    ]


def test_expected_workspace_changes_only_rejects_unexpected_changes(tmp_path: Path) -> None:
    data(tmp_path)
    wanted = {"added": ["report.json"], "only": True}
    script = "touch report.json; echo x >> log.txt"
    report = run(write(tmp_path, [case("mutate", script, workspace_changes=wanted)]))
    problems = report.cases[0].trials[0].problems
    assert [p.code for p in problems] == [codes.WORKSPACE_CHANGE_UNEXPECTED]
    assert "'log.txt'" in problems[0].message
    assert problems[0].oracle == "/expected/workspace_changes/only"


def test_the_copy_is_deleted_after_each_trial(tmp_path: Path) -> None:
    data(tmp_path)
    report = run(write(tmp_path, [case("append", APPEND)]))
    dirs = trial_dirs(report)
    assert dirs and not any(d.exists() for d in dirs)
    assert all(t.workspace_path is None for t in report.cases[0].trials)


def test_keep_workspaces_keeps_the_copy_and_names_it(tmp_path: Path) -> None:
    data(tmp_path)
    fixture = write(tmp_path, [case("append", APPEND)])
    output = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(fixture), "--keep-workspaces", "-o", str(output)])
    assert result.exit_code == 0, result.output
    trials = json.loads(output.read_text())["cases"][0]["trials"]
    kept = [Path(t["workspace_path"]) for t in trials]
    try:
        assert [str(p) for p in kept] == [t["stderr"].strip() for t in trials]
        assert all((p / "log.txt").read_text() == "orig\nmore\n" for p in kept)
    finally:
        for path in kept:
            shutil.rmtree(path, ignore_errors=True)


def test_case_workspace_overrides_the_fixture_workspace(tmp_path: Path) -> None:
    data(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "log.txt").write_text("from other\n")
    own = case("own", "cat log.txt")
    own["workspace"] = {"input": "other"}
    report = run(write(tmp_path, [own, case("shared", "cat log.txt")]))
    assert [c.trials[0].stdout for c in report.cases] == ["from other\n", "orig\n"]


def test_case_cwd_is_relative_to_the_copy(tmp_path: Path) -> None:
    data(tmp_path)
    inside = case("inside", "cat keep.txt; pwd >&2")
    inside["cwd"] = "sub"
    report = run(write(tmp_path, [inside]))
    trial = report.cases[0].trials[0]
    assert trial.stdout == "keep\n"
    assert Path(trial.stderr.strip()).name == "sub"
    assert Path(trial.stderr.strip()).parent.name.startswith(workspace.PREFIX)


def test_a_missing_input_fails_the_trial_without_running_it(tmp_path: Path) -> None:
    root = data(tmp_path)
    marker = tmp_path / "ran"
    path = write(tmp_path, [case("never", f"touch {marker}")])
    loaded = load_fixture(path)
    assert loaded.model is not None
    shutil.rmtree(root)
    report = evaluate(loaded, RunOptions()).report
    trials = report.cases[0].trials
    assert report.cases[0].outcome == "FAIL" and report.readiness != "READY"
    assert [t.outcome for t in trials] == ["FAIL", "FAIL"]
    assert [p.code for p in trials[0].problems] == [codes.WORKSPACE_UNAVAILABLE]
    assert "does not exist" in trials[0].problems[0].message
    assert trials[0].exit_code is None and not marker.exists()


def test_an_input_that_is_a_file_is_unavailable(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a directory")
    report = run(write(tmp_path, [case("never", "true")]))
    problem = report.cases[0].trials[0].problems[0]
    assert problem.code == codes.WORKSPACE_UNAVAILABLE and "not a directory" in problem.message


def test_a_symlink_escaping_the_input_is_copied_as_a_link_not_followed(tmp_path: Path) -> None:
    root = data(tmp_path / "skill")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (root / "link").symlink_to(outside / "secret.txt")
    check = {"path": "link", "exists": True}
    probe = case("probe", "test -L link && readlink link", artifacts=[check])
    report = run(write(tmp_path / "skill", [probe]))
    trial = report.cases[0].trials[0]
    assert trial.stdout.strip() == str(outside / "secret.txt")
    assert [p.code for p in trial.problems] == [codes.ARTIFACT_UNSAFE_PATH]
    assert trial.artifact_hashes == {}


def test_parallel_trials_each_get_their_own_copy(tmp_path: Path) -> None:
    root = data(tmp_path)
    script = "cat log.txt; echo more >> log.txt; sleep 0.3; cat log.txt; pwd >&2"
    report = run(write(tmp_path, [case("append", script)], trials=3), jobs=3)
    assert [t.stdout for t in report.cases[0].trials] == ["orig\norig\nmore\n"] * 3
    assert len(set(trial_dirs(report))) == 3
    assert (root / "log.txt").read_text() == "orig\n"


def test_every_kind_of_change_is_recorded_alike_in_both_modes(tmp_path: Path) -> None:
    root = data(tmp_path)
    (root / "tree" / "deep").mkdir(parents=True)
    (root / "tree" / "deep" / "x.txt").write_text("x")
    (root / "swap").mkdir()
    (root / "swap" / "inner.txt").write_text("i")
    (root / "opaque").mkdir()
    (root / "opaque" / "old.txt").write_text("o")
    (root / "opaque" / "kept.txt").write_text("k")
    (root / "file-to-dir").write_text("f")
    (root / "same.txt").write_text("same")
    (root / "link").symlink_to("log.txt")
    script = "; ".join(
        [
            "echo more >> log.txt",  # changed content
            "printf same > same.txt",  # rewritten with the same bytes: unchanged
            "rm sub/gone.txt",  # a removed file
            "rm -r tree",  # a removed directory, with everything below it
            "rm -r swap && echo now-a-file > swap",  # a directory replaced by a file
            "rm file-to-dir && mkdir file-to-dir && touch file-to-dir/in",  # the other way
            "rm -r opaque && mkdir opaque && printf k > opaque/kept.txt && touch opaque/new.txt",
            "ln -sfn sub link",  # a symlink pointing elsewhere
            "mkdir -p made/deeper && touch made/deeper/a",  # added, with what is below
        ]
    )
    report = run(write(tmp_path, [case("edits", script)], trials=1))
    trial = report.cases[0].trials[0]
    assert trial.outcome == "PASS", trial.problems
    assert trial.workspace_changes is not None
    assert trial.workspace_changes.model_dump() == {
        "added": ["file-to-dir/in", "made", "made/deeper", "made/deeper/a", "opaque/new.txt"],
        "changed": ["file-to-dir", "link", "log.txt", "swap"],
        "removed": [
            "opaque/old.txt",
            "sub/gone.txt",
            "swap/inner.txt",
            "tree",
            "tree/deep",
            "tree/deep/x.txt",
        ],
    }
    assert (root / "log.txt").read_text() == "orig\n" and (root / "tree").is_dir()


def special_files(root: Path) -> list[str]:
    """A FIFO, a socket and (where allowed) a character device like /dev/zero in ``root``."""
    import os
    import socket
    import stat

    os.mkfifo(root / "pipe")
    made = ["pipe (FIFO)"]
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(root / "sock"))
    server.close()
    made.append("sock (socket)")
    try:
        os.mknod(root / "zero", stat.S_IFCHR | 0o666, os.makedev(1, 5))
        made.append("zero (character device)")
    except PermissionError:
        pass
    return sorted(made)


def test_devices_fifos_and_sockets_in_the_input_are_never_read(tmp_path: Path) -> None:
    root = data(tmp_path)
    made = special_files(root)
    probe = case("lists", "ls; cat log.txt", stdout_contains=["orig"])
    report = run(write(tmp_path, [probe], trials=1), timeout_seconds=30)
    trial = report.cases[0].trials[0]
    assert trial.outcome == "PASS", trial.problems
    assert trial.duration_ms < 20_000  # a copy reading /dev/zero would never end
    assert trial.isolation is not None
    if MODE == "copy":
        assert trial.isolation.not_copied == made  # recorded, not read
        assert "pipe" not in trial.stdout
    else:
        assert trial.isolation.not_copied == []  # the overlay shows them; nothing reads them
        assert "pipe" in trial.stdout
    assert trial.workspace_changes is not None and trial.workspace_changes.changed == []


def test_a_fifo_the_trial_makes_is_recorded_without_being_read(tmp_path: Path) -> None:
    data(tmp_path)
    report = run(write(tmp_path, [case("mkfifo", "mkfifo made")], trials=1))
    trial = report.cases[0].trials[0]
    assert trial.outcome == "PASS" and trial.workspace_changes is not None
    assert trial.workspace_changes.added == ["made"]
