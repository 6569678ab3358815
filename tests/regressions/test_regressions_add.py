"""``regressions add``: a record is written only when its proof verifies, atomically."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from regression_helpers import TALLY, record, structural, tally_fixture, tally_skill

from agentic_evals.cli import cli
from agentic_evals.regressions.audit import show_skill

MINUS = ("tally.sh", "$1 + $2", "$1 - $2")
ARGS = ("--id", "minus", "--case", "adds", "--mutation", *MINUS)


def add(skill: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["regressions", "add", str(skill), *args])


def registry_of(skill: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((skill / "fixtures" / "regressions.json").read_text())
    return document


def new_skill(tmp_path: Path, name: str = "skill") -> Path:
    skill = tally_skill(tmp_path, name=name)
    (skill / "fixtures" / "regressions.json").unlink()
    return skill


def test_add_writes_a_verified_record_with_its_verification(tmp_path: Path) -> None:
    skill = new_skill(tmp_path)
    old_umask = os.umask(0o027)
    try:
        labels = ["--claim", "c.total", "--seam", "s.sum"]
        ran = add(skill, *ARGS, "--failure-code", "STDOUT_MISSING", *labels)
    finally:
        os.umask(old_umask)
    assert ran.exit_code == 0, ran.output
    assert "VERIFIED minus" in ran.output
    path = skill / "fixtures" / "regressions.json"
    assert path.stat().st_mode & 0o777 == 0o640  # a new file: 0666 less the umask
    document = registry_of(skill)
    assert document["schema"] == "agentic_evals.regressions.v1" and document["skill"] == "skill"
    [written] = document["regressions"]
    assert written["fail_before_fix"] == {
        "mutation": {"path": "tally.sh", "find": "$1 + $2", "replace": "$1 - $2"}
    }
    assert (written["claim_ids"], written["seam_ids"]) == (["c.total"], ["s.sum"])
    assert written["verification"]["date"] == written["last_proven"]
    outcome = show_skill(skill)
    assert outcome.show is not None and outcome.show.rows[0].established_fail_before_fix


def test_add_refuses_a_proof_that_does_not_verify(tmp_path: Path) -> None:
    skill = new_skill(tmp_path)
    comment = ["--mutation", "tally.sh", "# prints", "# shows", "--failure-code", "EXIT_CODE"]
    harmless = add(skill, "--id", "r", "--case", "adds", *comment)
    assert harmless.exit_code == 1 and "GUARD_NOT_CAUGHT" in harmless.output
    assert not (skill / "fixtures" / "regressions.json").exists()
    absent = add(skill, "--id", "r", "--case", "adds", "--mutation", "tally.sh", "nope", "x")
    assert absent.exit_code == 1 and "PROOF_NOT_APPLICABLE" in absent.output
    assert not (skill / "fixtures" / "regressions.json").exists()


def test_add_keeps_the_registry_and_its_mode_and_appends(tmp_path: Path) -> None:
    skill = tally_skill(tmp_path, record("earlier", retained_case="adds", rationale="kept"))
    path = skill / "fixtures" / "regressions.json"
    path.chmod(0o604)
    before = json.loads(path.read_text())
    ran = add(skill, "--id", "minus", "--case", "adds", "--mutation", *MINUS)
    assert ran.exit_code == 0, ran.output
    after = json.loads(path.read_text())
    assert after["regressions"][0] == before["regressions"][0]
    # Without --failure-code, the first problem code every trial shows on the broken tree.
    assert after["regressions"][1]["failure_code"] == "STDOUT_MISSING"
    assert path.stat().st_mode & 0o777 == 0o604
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []
    again = add(skill, "--id", "minus", "--case", "adds", "--mutation", *MINUS)
    assert again.exit_code == 2 and "already has regression 'minus'" in again.output


def test_add_stores_a_patch_relative_to_the_registry(tmp_path: Path) -> None:
    skill = new_skill(tmp_path)
    patch = skill / "fixtures" / "regressions" / "minus.patch"
    patch.parent.mkdir()
    patch.write_text(
        "--- a/tally.sh\n+++ b/tally.sh\n@@ -3 +3 @@\n"
        '-echo "total: $(( $1 + $2 ))"\n+echo "total: $(( $1 - $2 ))"\n'
    )
    ran = add(skill, "--id", "p", "--case", "adds", "--patch", str(patch))
    assert ran.exit_code == 0, ran.output
    [written] = registry_of(skill)["regressions"]
    assert written["fail_before_fix"] == {"patch": "regressions/minus.patch"}
    outside = tmp_path / "minus.patch"
    outside.write_text(patch.read_text())
    refused = add(skill, "--id", "q", "--case", "adds", "--patch", str(outside))
    assert refused.exit_code == 2 and "is outside" in refused.output


def test_add_resolves_a_git_ref_to_its_commit(tmp_path: Path) -> None:
    skill = new_skill(tmp_path)
    (skill / "tally.sh").write_text(TALLY.replace("$1 + $2", "$1 - $2"))

    def git(*args: str) -> str:
        identity = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
        done = subprocess.run(["git", *identity, *args], cwd=skill, capture_output=True,
                              text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "bug")
    (skill / "tally.sh").write_text(TALLY)
    git("commit", "-qam", "fix")
    ran = add(skill, "--id", "g", "--case", "adds", "--git-ref", "HEAD~1")
    assert ran.exit_code == 0, ran.output
    [written] = registry_of(skill)["regressions"]
    assert written["fail_before_fix"] == {"git_ref": git("rev-parse", "HEAD~1")}
    unknown = add(skill, "--id", "h", "--case", "adds", "--git-ref", "no-such-branch")
    assert unknown.exit_code == 2 and "names no commit" in unknown.output


def test_add_rejects_bad_input_without_running_or_writing(tmp_path: Path) -> None:
    skill = new_skill(tmp_path)
    generic = add(skill, "--id", "r", "--case", "adds", "--mutation", *MINUS,
                  "--failure-code", "No such file or directory")  # fmt: skip
    assert generic.exit_code == 2 and "AE-REG-GENERIC-CODE" in generic.output
    assert str(skill / "fixtures" / "regressions.json") in generic.output  # the real file named
    both = add(skill, "--id", "r", "--case", "adds", "--mutation", *MINUS, "--git-ref", "HEAD")
    assert both.exit_code == 2 and "exactly one of" in both.output
    assert add(skill, "--id", "r", "--case", "adds").exit_code == 2
    count = add(skill, "--id", "r", "--case", "adds", "--git-ref", "HEAD", "--count", "2")
    assert count.exit_code == 2 and "--count goes with --mutation" in count.output
    assert (
        add(tmp_path / "missing", "--id", "r", "--case", "adds", "--mutation", *MINUS).exit_code
        == 2
    )
    assert not (skill / "fixtures" / "regressions.json").exists()


def test_add_never_overwrites_a_registry_that_changed_meanwhile(tmp_path: Path) -> None:
    # The guard itself edits the registry while it runs on the current tree; only a trial
    # on the shared tree (isolation: none) can reach the user's file.
    editing = tally_fixture(
        command=["bash", "-c", "echo ' ' >> regressions.json; bash ../tally.sh 2 3"],
        isolation="none",
    )
    skill = tally_skill(tmp_path, structural("other"), fixture=editing)
    path = skill / "fixtures" / "regressions.json"
    ran = add(skill, "--id", "minus", "--case", "adds", "--mutation", *MINUS)
    assert ran.exit_code == 2 and "changed since it was loaded" in ran.output
    assert "minus" not in path.read_text()
