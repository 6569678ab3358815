"""Defect 21: scaffolds are never written through a symlink out of the tree, and a symlinked
alias of a skill folder is not a second skill.

``scaffold-fixture`` and ``apply-scaffolds --write`` on a skill whose
``fixtures/`` (or ``fixtures/agentic_eval.json``) is a symlink to a folder
outside: nothing is written outside, the command says why.
"""

from __future__ import annotations

import json
from pathlib import Path

from hostile_run_helpers import SKILL_MD, cli

RUN_SH = "#!/bin/sh\necho ok\n"


def _skill(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL_MD.format(name=folder.name))
    (folder / "run.sh").write_text(RUN_SH)
    (folder / "run.sh").chmod(0o755)
    return folder


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    return outside


def test_d21_scaffold_fixture_does_not_write_through_a_symlinked_fixtures_folder(
    tmp_path: Path,
) -> None:
    skill = _skill(tmp_path / "skills" / "a")
    outside = _outside(tmp_path)
    (skill / "fixtures").symlink_to(outside, target_is_directory=True)
    code, err = cli("scaffold-fixture", str(skill))
    assert code == 2, err
    assert "symlink" in err and "Traceback" not in err
    assert list(outside.iterdir()) == []


def test_d21_scaffold_fixture_does_not_write_through_a_symlinked_fixture_file(
    tmp_path: Path,
) -> None:
    skill = _skill(tmp_path / "skills" / "a")
    outside = _outside(tmp_path)
    (skill / "fixtures").mkdir()
    (skill / "fixtures" / "agentic_eval.json").symlink_to(outside / "victim.json")
    code, err = cli("scaffold-fixture", str(skill), "--force")
    assert code == 2, err
    assert not (outside / "victim.json").exists()


def test_d21_a_symlink_inside_the_skill_is_written_through(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "skills" / "a")
    (skill / "evals").mkdir()
    (skill / "fixtures").symlink_to("evals", target_is_directory=True)
    code, err = cli("scaffold-fixture", str(skill))
    assert code == 0, err
    assert json.loads((skill / "evals" / "agentic_eval.json").read_text())["skill"] == "a"


def test_d21_apply_scaffolds_write_refuses_a_symlinked_fixtures_folder(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    escaping = _skill(skills / "a")
    _skill(skills / "b")
    outside = _outside(tmp_path)
    (escaping / "fixtures").symlink_to(outside, target_is_directory=True)
    receipt = tmp_path / "receipt.json"
    code, err = cli("apply-scaffolds", str(skills), "--write", "-o", str(receipt))
    assert "Traceback" not in err
    assert list(outside.iterdir()) == []
    document = json.loads(receipt.read_text())
    assert document["created"] == ["b"], err
    (failed,) = document["failed"]
    assert failed["skill"] == "a" and "symlink" in failed["reason"]


def test_d21_apply_scaffolds_counts_a_symlinked_alias_once(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    _skill(skills / "real")
    (skills / "alias").symlink_to("real", target_is_directory=True)  # sorts first
    dry = tmp_path / "dry.json"
    cli("apply-scaffolds", str(skills), "-o", str(dry))
    assert json.loads(dry.read_text())["would_create"] == ["real"]
    receipt = tmp_path / "receipt.json"
    code, err = cli("apply-scaffolds", str(skills), "--write", "-o", str(receipt))
    document = json.loads(receipt.read_text())
    assert document["created"] == ["real"], err
    (skipped,) = document["skipped"]
    assert skipped["skill"] == "alias" and "same folder as real" in skipped["reason"]
