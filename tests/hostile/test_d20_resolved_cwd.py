"""Defect 20: a ``cwd`` (or ``workspace.input``) that a symlink takes out of the tree is refused.

As written, ``escape`` stays inside the skill tree; on disk it is a symlink to
a folder outside. At load time that is ``AE-PATH-ESCAPE`` (exit 2, with the
pointer); where the path exists only in a trial's workspace copy, the trial
is not started (``EXEC_FAILED`` naming ``AE-PATH-ESCAPE``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_run_helpers import case, cli, skill


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    return outside


def _tree(tmp_path: Path) -> Path:
    fixtures = tmp_path / "s" / "fixtures"
    fixtures.mkdir(parents=True)
    (fixtures / "escape").symlink_to(_outside(tmp_path), target_is_directory=True)
    (fixtures / "inner").mkdir()
    (fixtures / "alias").symlink_to("inner", target_is_directory=True)
    return fixtures


@pytest.mark.parametrize(
    ("fields", "top", "pointer"),
    [
        ({"cwd": "escape"}, {}, "/cases/0/cwd"),
        ({"cwd": "escape/deeper"}, {}, "/cases/0/cwd"),
        ({"cwd": "${FIXTURE_DIR}/escape"}, {}, "/cases/0/cwd"),
        ({"workspace": {"input": "escape"}}, {}, "/cases/0/workspace/input"),
        ({}, {"workspace": {"input": "escape"}}, "/workspace/input"),
    ],
    ids=["cwd", "cwd-below", "cwd-placeholder", "case-workspace", "fixture-workspace"],
)
@pytest.mark.parametrize("command", ["validate", "run"])
def test_d20_a_symlink_out_of_the_tree_is_path_escape_at_load(
    tmp_path: Path, fields: dict[str, object], top: dict[str, object], pointer: str, command: str
) -> None:
    _tree(tmp_path)
    marker = _outside(tmp_path) / "ran"
    fixture = skill(tmp_path / "s", [case("a", ["touch", str(marker)], **fields)], **top)
    code, err = cli(command, str(fixture))
    assert code == 2, err
    assert f"{pointer} AE-PATH-ESCAPE" in err and "symlink" in err, err
    assert not marker.exists()


def test_d20_a_symlink_that_stays_inside_the_tree_is_accepted(tmp_path: Path) -> None:
    _tree(tmp_path)
    fixture = skill(tmp_path / "s", [case("a", ["pwd"], cwd="alias")])
    output = tmp_path / "report.json"
    code, err = cli("run", str(fixture), "-o", str(output))
    assert code == 0, err
    (trial,) = json.loads(output.read_text())["cases"][0]["trials"]
    assert trial["stdout"].strip().endswith("fixtures/inner")  # pwd prints the real folder


def test_d20_a_cwd_leaving_the_workspace_copy_through_a_symlink_is_not_started(
    tmp_path: Path,
) -> None:
    fixtures = _tree(tmp_path)
    work = fixtures / "work"
    work.mkdir()
    (work / "escape").symlink_to(_outside(tmp_path), target_is_directory=True)
    marker = _outside(tmp_path) / "ran"
    fields = {"workspace": {"input": "work"}, "cwd": "escape"}
    fixture = skill(tmp_path / "s", [case("a", ["touch", "ran"], **fields)])
    output = tmp_path / "report.json"
    code, err = cli("run", str(fixture), "-o", str(output))
    assert code == 1, err
    (trial,) = json.loads(output.read_text())["cases"][0]["trials"]
    assert trial["outcome"] == "FAIL"
    problem = trial["problems"][0]
    assert problem["code"] == "EXEC_FAILED" and "AE-PATH-ESCAPE" in problem["message"]
    assert not marker.exists(), "the program ran in the folder outside"
