"""``regressions verify`` of free-form proofs (at most weak), exit codes and ``--write``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from regression_helpers import (
    fixture_doc,
    freeze_today,
    guarded_skill,
    mutation,
    record,
    registry,
    structural,
    tally_fixture,
    tally_skill,
)

from agentic_evals.cli import cli
from agentic_evals.regressions.audit import show_skill
from agentic_evals.regressions.judge import ProofRun, judge
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.results import RegressionsVerify, VerifyResult
from agentic_evals.regressions.verify import VerifyOptions, verify_skill


def bash(script: str) -> dict[str, Any]:
    return {"proof_command": ["bash", "-c", script]}


def verify(skill: Path, **options: Any) -> RegressionsVerify:
    outcome = verify_skill(skill, VerifyOptions(**options))
    assert outcome.verify is not None, [f.render() for f in outcome.load.findings]
    return outcome.verify


def one(tmp_path: Path, **fields: Any) -> VerifyResult:
    [result] = verify(guarded_skill(tmp_path, registry(record(**fields)))).results
    return result


def test_an_echo_proof_that_prints_the_failure_code_is_only_weak(tmp_path: Path) -> None:
    result = one(tmp_path, fail_before_fix=bash("echo 'guard says GUARD_CAUGHT_IT' >&2; exit 1"))
    assert (result.verdict, result.fail_before_fix_verified) == ("weak", False)
    assert (result.reason_code, result.proof, result.proof_exit_code) == (
        "WEAK_PROOF",
        "proof_command",
        1,
    )
    assert result.detail.startswith(
        "the proof exited 1 showing failure_code 'GUARD_CAUGHT_IT'; but a proof_command's "
        "output is its own word, so it is at most weak"
    )
    assert result.verification is None


def test_a_proof_that_fails_because_a_file_is_missing_is_not_verified(tmp_path: Path) -> None:
    result = one(tmp_path, fail_before_fix=bash("cat no-such-input.json"))
    assert (result.verdict, result.fail_before_fix_verified) == ("unproven", False)
    assert result.proof_exit_code == 1
    assert "its output lacks failure_code 'GUARD_CAUGHT_IT'" in result.detail
    assert "No such file or directory" in result.detail  # the last line of output, as a hint


def test_a_proof_that_only_exits_non_zero_is_weak(tmp_path: Path) -> None:
    result = one(tmp_path, failure_code=None, fail_before_fix=bash("echo GUARD_CAUGHT_IT; exit 1"))
    assert (result.verdict, result.fail_before_fix_verified) == ("weak", False)
    assert "neither failure_code nor expected_markers" in result.detail


def test_a_proof_that_passes_is_unproven(tmp_path: Path) -> None:
    result = one(tmp_path, fail_before_fix=bash("echo GUARD_CAUGHT_IT"))
    assert (result.verdict, result.proof_exit_code) == ("unproven", 0)
    assert "does not fail against the broken behaviour" in result.detail
    weak_and_passing = one(tmp_path / "b", failure_code=None, fail_before_fix=bash("true"))
    assert weak_and_passing.verdict == "unproven"


def test_every_marker_must_show(tmp_path: Path) -> None:
    both = {"expected_markers": ["EXIT_CODE at /x", "FAIL"]}
    shown = {**bash("echo 'EXIT_CODE at /x'; echo FAIL >&2; exit 1"), **both}
    # Self-printed markers: shown, and still only weak.
    assert one(tmp_path, failure_code=None, fail_before_fix=shown).verdict == "weak"
    half = {**bash("echo FAIL; exit 1"), **both}
    result = one(tmp_path / "b", failure_code=None, fail_before_fix=half)
    assert result.verdict == "unproven" and result.markers_missing == ["EXIT_CODE at /x"]
    code_instead = {**bash("echo GUARD_CAUGHT_IT; exit 1"), **both}
    assert one(tmp_path / "c", fail_before_fix=code_instead).verdict == "weak"
    echoed = {**bash("echo FAIL; echo 'EXIT_CODE at /x'"), **both, "expected_fail": False}
    passing = one(tmp_path / "d", failure_code=None, fail_before_fix=echoed)
    assert (passing.verdict, passing.fail_before_fix_verified) == ("weak", False)


def test_a_proof_that_cannot_start_is_unproven_with_the_reason(tmp_path: Path) -> None:
    result = one(tmp_path, fail_before_fix={"proof_command": ["agentic-evals-no-such-program"]})
    assert (result.verdict, result.proof_exit_code) == ("unproven", None)
    assert result.detail.startswith("the proof could not start: cannot start")
    bad_cwd = one(tmp_path / "b", fail_before_fix={"proof_command": ["true"], "cwd": "nowhere"})
    assert "working directory" in bad_cwd.detail


def test_a_proof_that_hangs_is_killed_and_unproven(tmp_path: Path) -> None:
    skill = guarded_skill(tmp_path, registry(record(fail_before_fix=bash("sleep 30 & sleep 30"))))
    [result] = verify(skill, timeout_seconds=0.5).results
    assert result.timed_out and result.proof_exit_code is None
    assert result.detail == "the proof timed out after 0.5s and was killed"


def test_proofs_run_without_a_shell_from_their_cwd(tmp_path: Path) -> None:
    literal = {"proof_command": ["echo", "GUARD_CAUGHT_IT; exit 1"]}
    assert one(tmp_path, fail_before_fix=literal).verdict == "unproven"  # echo exits 0
    in_sub = {**bash("cat marker; exit 1"), "cwd": "sub"}
    skill = guarded_skill(tmp_path / "b", registry(record(fail_before_fix=in_sub)))
    (skill / "sub").mkdir()
    (skill / "sub" / "marker").write_text("GUARD_CAUGHT_IT\n")
    (skill / "marker").write_text("wrong folder\n")
    assert verify(skill).results[0].verdict == "weak"  # it ran in sub/ and showed the code


def test_only_active_records_run(tmp_path: Path) -> None:
    skill = guarded_skill(
        tmp_path,
        registry(
            record("old", status="RETIRED", retirement="gone", fail_before_fix=bash("touch ran")),
            record(
                "waived",
                status="EXEMPT",
                fail_before_fix=bash("touch ran"),
                reason="switched off",
                owner="ops",
                expires="2999-01-01",
            ),
            record("none", fail_before_fix=None),
        ),
    )
    document = verify(skill)
    assert document.skipped == ["old", "waived"] and document.unproven == ["none"]
    assert document.results[2].detail == "no fail_before_fix proof: nothing to run"
    assert document.results[2].reason_code == "NO_PROOF"
    assert not (skill / "ran").exists()


def pure(**fields: Any) -> Regression:
    return Regression.model_validate(record(**fields))


def run(**changes: Any) -> ProofRun:
    base = ProofRun(1, False, None, 120.0, True, (), "")
    return base._replace(**changes)


def test_judge_rules_in_isolation() -> None:
    assert judge(pure(), run()).verdict == "verified"
    assert judge(pure(), run(failure_code_seen=False)).verdict == "unproven"
    assert judge(pure(), run(exit_code=0)).verdict == "unproven"
    assert judge(pure(failure_code=None), run()).verdict == "weak"
    assert judge(pure(), run(timed_out=True, exit_code=None)).verdict == "unproven"
    assert judge(pure(), run(start_error="nope", exit_code=None)).verdict == "unproven"
    passing = pure(fail_before_fix={"proof_command": ["true"], "expected_fail": False})
    assert judge(passing, run(exit_code=0)).verdict == "verified"
    assert judge(passing, run(exit_code=1)).verdict == "unproven"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["regressions", "verify", *args])
    return result.exit_code, result.output


def test_verify_exit_codes(tmp_path: Path) -> None:
    good = tally_skill(tmp_path, structural(), name="good")
    assert invoke(str(good))[0] == 0
    weak = guarded_skill(tmp_path, registry(record()), name="weak")
    code, output = invoke(str(weak))
    assert code == 1 and "WEAK" in output
    assert invoke(str(weak), "--report-only")[0] == 0
    invalid = guarded_skill(
        tmp_path, registry(record("x"), record("x", fail_before_fix=bash("touch ran"))), name="bad"
    )
    code, output = invoke(str(invalid))
    assert code == 2 and "nothing was run" in output and not (invalid / "ran").exists()
    assert invoke(str(tmp_path / "missing"))[0] == 2


def test_write_records_the_verification_and_keeps_everything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_today(monkeypatch, "2026-07-04")
    absent = mutation(find="no such text")
    records = [
        structural("proven", rationale="kept", last_proven="2026-01-01"),
        structural("alias", fail_before_fix={**mutation(), "last_proven": "2026-01-02"}),
        structural("fresh", notes="after the proof"),
        structural("failing", last_proven="2026-01-03", fail_before_fix=absent),
        record("weak"),
    ]
    skill = tally_skill(tmp_path, *records)
    path = skill / "fixtures" / "regressions.json"
    path.chmod(0o640)
    document = json.loads(path.read_text())
    document |= {"skill": "demo", "incidents": [{"id": "i", "status": "fixed"}]}
    path.write_text(json.dumps(document, indent=4))
    result = verify(skill, write=True)
    assert result.written == ["proven", "alias", "fresh"] == result.verified
    assert oct(path.stat().st_mode & 0o777) == "0o640"
    assert path.read_text().startswith('{\n    "schema"')  # the file's indent
    after = json.loads(path.read_text())
    assert list(after) == list(document)
    proven, alias, fresh, failing, weak = after["regressions"]
    expected = {
        "date": "2026-07-04",
        "proof": "mutation",
        "proof_sha256": result.results[0].verification.proof_sha256,  # type: ignore[union-attr]
    }
    assert proven["verification"].items() >= expected.items()
    assert proven["last_proven"] == "2026-07-04" and proven["rationale"] == "kept"
    assert list(proven) == [*list(document["regressions"][0]), "verification"]
    assert alias["fail_before_fix"]["last_proven"] == "2026-07-04" and "last_proven" not in alias
    assert list(fresh) == [
        *list(document["regressions"][2])[:-1],
        "last_proven",
        "verification",
        "notes",
    ]
    assert failing == document["regressions"][3] and weak == document["regressions"][4]
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []
    rows = {row.regression_id: row for row in show_skill(skill).show.rows}  # type: ignore[union-attr]
    assert [rows[name].established_fail_before_fix for name in ("proven", "alias", "fresh")] == [
        True
    ] * 3
    assert not rows["failing"].established_fail_before_fix and rows["weak"].proof_state == "weak"


def test_write_is_atomic_and_never_clobbers_a_changed_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = tally_skill(tmp_path, structural())
    path = skill / "fixtures" / "regressions.json"
    before = path.read_bytes()

    def fail_rename(src: str, dst: str, **dir_fds: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail_rename)
    with pytest.raises(OSError, match="disk full"):
        verify_skill(skill, VerifyOptions(write=True))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "agentic_eval.json",
        "regressions.json",
    ]
    # The guard itself appends to the registry while it runs on the current tree; only a
    # trial on the shared tree (isolation: none) can reach the user's file.
    editing = tally_fixture(
        command=["bash", "-c", "echo ' ' >> regressions.json; bash ../tally.sh 2 3"],
        isolation="none",
    )
    changed = tally_skill(tmp_path, structural(), name="editing", fixture=editing)
    code, output = invoke(str(changed), "--write")
    assert code == 2 and "changed since it was loaded" in output
    assert "verification" not in (changed / "fixtures" / "regressions.json").read_text()


def test_guard_requires_the_retained_case_of_a_proof_command_to_pass_now(tmp_path: Path) -> None:
    passing = guarded_skill(tmp_path, registry(record()), name="passing")
    [result] = verify(passing, guard=True).results
    assert result.verdict == "weak" and result.guard is not None
    assert result.guard.passed and result.guard.outcome == "PASS"
    assert result.pass_after_fix_verified is True
    failing_fixture = fixture_doc("guard", command=["bash", "-c", "echo broken; exit 0"])
    failing = guarded_skill(tmp_path, registry(record()), name="failing", fixture=failing_fixture)
    [result] = verify(failing, guard=True).results
    assert (result.verdict, result.reason_code) == ("unproven", "GUARD_FAILS_NOW")
    assert result.guard is not None and result.guard.outcome == "FAIL"
    assert "EXIT_CODE" in result.guard.detail and "does not PASS now" in result.detail
    gone = guarded_skill(tmp_path, registry(record(retained_case="gone")), name="gone")
    [result] = verify(gone, guard=True).results
    assert result.verdict == "unproven" and result.guard is not None
    assert result.guard.outcome is None and "is not in agentic_eval.json" in result.guard.detail
    assert invoke(str(failing), "--guard")[0] == 1
