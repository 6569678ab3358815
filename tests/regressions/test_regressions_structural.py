"""Structural proofs: the bug put back in a private tree, the guard judged by its own run."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from regression_helpers import (
    TALLY,
    mutation,
    structural,
    tally_fixture,
    tally_skill,
    tree_state,
)

from agentic_evals.cli import cli
from agentic_evals.regressions.identity import case_identity, proof_sha256
from agentic_evals.regressions.load import load_registry
from agentic_evals.regressions.protection import FixtureCache
from agentic_evals.regressions.results import RegressionsVerify, VerifyResult
from agentic_evals.regressions.verify import VerifyOptions, verify_skill

BROKEN_PREFIX = "agentic-evals-broken-"


@pytest.fixture(autouse=True)
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Broken trees go to a temporary directory of the test's own, to count leftovers."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    return scratch


def leftovers(scratch: Path) -> list[str]:
    return [name for name in os.listdir(scratch) if name.startswith(BROKEN_PREFIX)]


def verify(skill: Path, **options: Any) -> RegressionsVerify:
    outcome = verify_skill(skill, VerifyOptions(**options))
    assert outcome.verify is not None, [f.render() for f in outcome.load.findings]
    return outcome.verify


def one(tmp_path: Path, *, fixture: dict[str, Any] | None = None, **fields: Any) -> VerifyResult:
    [result] = verify(tally_skill(tmp_path, structural(**fields), fixture=fixture)).results
    return result


PATCH = """\
--- a/tally.sh
+++ b/tally.sh
@@ -1,3 +1,3 @@
 #!/bin/bash
 # prints the total of its two arguments
-echo "total: $(( $1 + $2 ))"
+echo "total: $(( $1 * $2 ))"
"""


def test_a_mutation_proof_fails_on_the_broken_tree_and_passes_on_the_current_one(
    tmp_path: Path, private_tmp: Path
) -> None:
    skill = tally_skill(tmp_path, structural())
    before = tree_state(skill)
    document = verify(skill)
    [result] = document.results
    assert (result.verdict, result.reason_code, result.proof) == ("verified", None, "mutation")
    assert result.fail_before_fix_verified and result.pass_after_fix_verified
    assert [p.code for p in result.problems] == ["STDOUT_MISSING"]
    assert result.problems[0].oracle == "/expected/stdout_contains/0"
    assert result.broken_guard is not None and result.broken_guard.outcome == "FAIL"
    assert result.guard is not None and result.guard.outcome == "PASS"
    assert result.trees is not None and result.trees.current == str(skill)
    assert result.trees.broken is not None and not result.trees.kept
    assert result.trees.broken.startswith(str(private_tmp / BROKEN_PREFIX))
    assert result.broken_guard.tree == result.trees.broken and result.guard.tree == str(skill)
    assert result.detail == (
        "adds FAILs on the broken tree with 'STDOUT_MISSING' in all 2 trials and PASSes on the "
        "current tree"
    )
    assert document.verified == ["reg-1"] and document.unproven == document.unprotected == []
    # The user's checkout is never modified, and the broken tree is gone.
    assert tree_state(skill) == before and leftovers(private_tmp) == []
    loaded = load_registry(skill / "fixtures" / "regressions.json").model
    assert loaded is not None
    record, registry_dir = loaded.regressions[0], skill / "fixtures"
    identity = case_identity(record, registry_dir, FixtureCache())
    assert identity is not None and result.verification is not None
    assert result.verification.proof_sha256 == proof_sha256(record, registry_dir)
    assert result.verification.test_source_sha256 == identity.test_source_sha256
    assert result.verification.oracle_sha256 == identity.oracle_sha256


def test_a_patch_proof_is_applied_by_git_to_a_copy(tmp_path: Path, private_tmp: Path) -> None:
    proof = {"patch": "regressions/times.patch"}
    skill = tally_skill(
        tmp_path,
        structural(fail_before_fix=proof),
        files={"fixtures/regressions/times.patch": PATCH},
    )
    before = tree_state(skill)
    [result] = verify(skill).results
    assert (result.verdict, result.proof) == ("verified", "patch")
    assert (
        "expected 'total: 5'" not in result.detail and result.problems[0].code == "STDOUT_MISSING"
    )
    assert tree_state(skill) == before and leftovers(private_tmp) == []
    assert (skill / "tally.sh").read_text() == TALLY


def test_a_patch_that_does_not_apply_is_never_verified(tmp_path: Path, private_tmp: Path) -> None:
    stale = PATCH.replace("# prints the total", "# prints the sum")
    cases = {
        "stale.patch": stale,
        "garbage.patch": "this is no diff\n",
        "escape.patch": PATCH.replace("a/tally.sh", "a/../tally.sh").replace(
            "b/tally.sh", "b/../tally.sh"
        ),
    }
    files = {f"fixtures/regressions/{name}": text for name, text in cases.items()}
    records = [
        structural(name, fail_before_fix={"patch": f"regressions/{name}"})
        for name in [*cases, "missing.patch"]
    ]
    skill = tally_skill(tmp_path, *records, files=files)
    before = tree_state(skill)
    document = verify(skill, write=True)
    assert document.verified == [] and document.written == []
    for result in document.results:
        assert (result.verdict, result.reason_code) == ("unproven", "PROOF_NOT_APPLICABLE")
        assert not result.fail_before_fix_verified and result.guard is None
    stale_result, garbage, escape, missing = document.results
    assert stale_result.detail.startswith("the patch does not apply: error: patch failed: tally.sh")
    assert "No valid patches in input" in garbage.detail
    assert escape.detail.startswith("the patch does not apply")
    assert missing.detail.startswith("the patch cannot be read: No such file or directory")
    assert tree_state(skill) == before and leftovers(private_tmp) == []


@pytest.mark.parametrize(
    ("proof", "detail"),
    [
        (mutation(find="no such text"), "find occurs 0 times in tally.sh; the mutation expects 1"),
        (mutation(find="$"), "find occurs 3 times in tally.sh; the mutation expects 1"),
        (mutation(find="$", count=2), "find occurs 3 times in tally.sh; the mutation expects 2"),
        (
            {"mutation": {"path": "nowhere.sh", "find": "a", "replace": "b"}},
            "nowhere.sh is not a regular file of the skill folder",
        ),
        (
            {"mutation": {"path": "outside", "find": "a", "replace": "b"}},
            "outside is not a regular file of the skill folder",
        ),
        (
            {"mutation": {"path": "fixtures/agentic_eval.json", "find": "5", "replace": "6"}},
            "the proof edits the retained fixture fixtures/agentic_eval.json: it must put the "
            "bug back in the skill, not change the guard",
        ),
    ],
)
def test_a_mutation_that_does_not_apply_is_never_verified(
    tmp_path: Path, private_tmp: Path, proof: dict[str, Any], detail: str
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("a")
    skill = tally_skill(tmp_path, structural(fail_before_fix=proof))
    (skill / "outside").symlink_to(target)
    [result] = verify(skill).results
    assert (result.verdict, result.reason_code, result.detail) == (
        "unproven",
        "PROOF_NOT_APPLICABLE",
        detail,
    )
    assert target.read_text() == "a" and leftovers(private_tmp) == []


def test_count_replaces_every_occurrence(tmp_path: Path) -> None:
    result = one(tmp_path, fail_before_fix=mutation(find="$", replace="", count=3))
    assert result.verdict == "verified"  # "total: (( 1 + 2 ))" instead of "total: 5"


def test_a_bug_the_guard_does_not_catch_leaves_the_regression_unprotected(
    tmp_path: Path,
) -> None:
    harmless = mutation(find="# prints the total", replace="# prints the sum")
    skill = tally_skill(tmp_path, structural(fail_before_fix=harmless))
    document = verify(skill)
    [result] = document.results
    assert (result.verdict, result.reason_code) == ("unproven", "GUARD_NOT_CAUGHT")
    assert result.unprotected and document.unprotected == ["reg-1"]
    assert not result.fail_before_fix_verified and result.pass_after_fix_verified
    assert result.detail == (
        "adds PASSes on the broken tree: the guard does not catch the bug, the regression is "
        "unprotected"
    )
    code = CliRunner().invoke(cli, ["regressions", "verify", str(skill)])
    assert code.exit_code == 1 and "GUARD_NOT_CAUGHT" in code.output


def test_a_guard_that_fails_on_the_current_tree_proves_nothing(tmp_path: Path) -> None:
    wrong = tally_fixture(expected={"exit_code": 0, "stdout_contains": ["total: 6"]})
    result = one(tmp_path, fixture=wrong)
    assert (result.verdict, result.reason_code) == ("unproven", "GUARD_FAILS_NOW")
    assert result.pass_after_fix_verified is False and not result.unprotected
    assert result.guard is not None and result.guard.outcome == "FAIL"
    assert "does not PASS on the current tree (FAIL: STDOUT_MISSING at" in result.detail


def test_a_guard_that_fails_for_another_reason_is_not_verified(tmp_path: Path) -> None:
    result = one(tmp_path, failure_code="EXIT_CODE")
    assert (result.verdict, result.reason_code) == ("unproven", "GUARD_OTHER_FAILURE")
    assert result.detail == (
        "adds is FAIL on the broken tree, but not for the record's reason: 0 of 2 trials failed "
        "showing failure_code 'EXIT_CODE' (seen: STDOUT_MISSING at /expected/stdout_contains/0)"
    )


@pytest.mark.parametrize(
    ("code", "verdict"),
    [
        ("/expected/stdout_contains/0", "verified"),
        ("/expected/stdout_contains", "verified"),
        ("/expected/stdout_con", "unproven"),
        ("/expected/exit_code", "unproven"),
    ],
)
def test_an_oracle_pointer_names_the_failure(tmp_path: Path, code: str, verdict: str) -> None:
    assert one(tmp_path, failure_code=code).verdict == verdict


def test_every_trial_must_catch_the_bug(tmp_path: Path) -> None:
    line = 'echo "total: $(( $1 + $2 ))"'
    flaky = mutation(find=line, replace=f'[ "$AGENTIC_EVALS_TRIAL" = 1 ] && {line}')
    result = one(tmp_path, fail_before_fix=flaky)
    assert (result.verdict, result.reason_code) == ("unproven", "GUARD_OTHER_FAILURE")
    assert "1 of 2 trials failed showing failure_code 'STDOUT_MISSING'" in result.detail


def test_expected_markers_must_be_in_the_guards_problems(tmp_path: Path) -> None:
    shown = {**mutation(), "expected_markers": ['does not contain "total: 5"']}
    assert one(tmp_path, fail_before_fix=shown).verdict == "verified"
    absent = {**mutation(), "expected_markers": ["GUARD_CAUGHT_IT"]}
    result = one(tmp_path / "b", fail_before_fix=absent)
    assert result.reason_code == "GUARD_OTHER_FAILURE"
    assert "problems lack markers 'GUARD_CAUGHT_IT'" in result.detail


def test_a_missing_guard_is_unprotected_before_anything_is_built(
    tmp_path: Path, private_tmp: Path
) -> None:
    result = one(tmp_path, retained_case="gone")
    assert (result.verdict, result.reason_code, result.unprotected) == (
        "unproven",
        "GUARD_MISSING",
        True,
    )
    assert "retained case 'gone' is not in agentic_eval.json" in result.detail
    assert result.trees is None and leftovers(private_tmp) == []


def test_keep_leaves_the_broken_tree_and_says_where(tmp_path: Path, private_tmp: Path) -> None:
    skill = tally_skill(tmp_path, structural())
    ran = CliRunner().invoke(cli, ["regressions", "verify", str(skill), "--keep"])
    assert ran.exit_code == 0, ran.output
    [kept] = leftovers(private_tmp)
    tree = private_tmp / kept / "skill"
    assert f"broken tree kept at {tree}" in ran.output
    assert "$1 - $2" in (tree / "tally.sh").read_text()
    assert (skill / "tally.sh").read_text() == TALLY
    unapplied = tally_skill(tmp_path, structural(fail_before_fix=mutation(find="none")), name="b")
    document = verify(unapplied, keep=True)
    trees = document.results[0].trees
    assert trees is not None and trees.kept and trees.broken is not None
    assert Path(trees.broken).is_dir()  # kept for inspection though the proof did not apply


def test_a_signal_stops_the_run_and_removes_the_broken_tree(
    tmp_path: Path, private_tmp: Path
) -> None:
    # In the broken tree only, the guard's script sends SIGTERM to the runner.
    stop = mutation(find="echo", replace="kill -TERM $PPID; sleep 5; echo")
    skill = tally_skill(tmp_path, structural("first", fail_before_fix=stop), structural("second"))
    before = tree_state(skill)
    outcome = verify_skill(skill, VerifyOptions(write=True))
    document = outcome.verify
    assert document is not None and outcome.interrupted_by == 15
    assert document.interrupted == "SIGTERM" and document.written == []
    assert [r.reason_code for r in document.results] == ["NOT_RUN", "NOT_RUN"]
    assert tree_state(skill) == before and leftovers(private_tmp) == []


def test_the_verify_document_names_every_field_of_the_issue(tmp_path: Path) -> None:
    skill = tally_skill(tmp_path, structural())
    output = tmp_path / "verify.json"
    ran = CliRunner().invoke(cli, ["regressions", "verify", str(skill), "-o", str(output)])
    assert ran.exit_code == 0, ran.output
    [result] = json.loads(output.read_text())["results"]
    assert set(result) >= {
        "fail_before_fix_verified",
        "pass_after_fix_verified",
        "problems",
        "trees",
        "verification",
    }
