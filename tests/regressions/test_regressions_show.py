"""``regressions show`` and ``audit``: protection, proof, freshness, incidents, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from regression_helpers import (
    fixture_doc,
    freeze_today,
    guarded_skill,
    record,
    registry,
    structural,
    tally_skill,
)

from agentic_evals.cli import cli
from agentic_evals.regressions.audit import show_skill
from agentic_evals.regressions.results import RegressionRow, RegressionsShow
from agentic_evals.regressions.tree import audit_tree
from agentic_evals.regressions.verify import VerifyOptions, verify_skill


def show(skill: Path, freshness_days: int = 30) -> RegressionsShow:
    outcome = show_skill(skill, freshness_days)
    assert outcome.show is not None, [f.render() for f in outcome.load.findings]
    return outcome.show


def row(skill: Path) -> RegressionRow:
    [only] = show(skill).rows
    return only


def proven_skill(root: Path, name: str = "skill") -> Path:
    """A skill whose one structural proof verified and was recorded by ``verify --write``."""
    skill = tally_skill(root, structural(), name=name)
    outcome = verify_skill(skill, VerifyOptions(write=True))
    assert outcome.verify is not None and outcome.verify.written == ["reg-1"]
    return skill


def test_a_guard_in_a_fixture_that_loads_is_protected(tmp_path: Path) -> None:
    only = row(proven_skill(tmp_path))
    assert only.protected and only.established_fail_before_fix and not only.stale_live_proof
    assert (only.proof, only.proof_state, only.issues) == ("mutation", "established", [])


def test_a_missing_or_renamed_retained_case_is_unprotected(tmp_path: Path) -> None:
    renamed = guarded_skill(tmp_path, registry(record()), fixture=fixture_doc("other", "guards"))
    only = row(renamed)
    assert not only.protected
    assert only.issues[0] == (
        "UNPROTECTED: retained case 'guard' is not in agentic_eval.json; renamed to 'guards'?"
    )
    elsewhere = guarded_skill(tmp_path, registry(record(retained_fixture="gone.json")), name="b")
    assert row(elsewhere).issues[0] == "UNPROTECTED: retained fixture gone.json does not exist"


def test_a_retained_fixture_that_does_not_load_protects_nothing(tmp_path: Path) -> None:
    broken = fixture_doc("guard")
    broken["version"] = 1
    only = row(guarded_skill(tmp_path, registry(record()), fixture=broken))
    assert not only.protected
    issue = only.issues[0]
    assert issue.startswith("UNPROTECTED: retained fixture agentic_eval.json does not load")
    assert "AE-SCHEMA-VERSION" in issue and "although it holds the case" in issue


def test_a_proof_never_recorded_is_never_proven(tmp_path: Path) -> None:
    skill = tally_skill(
        tmp_path,
        structural("no-date"),
        structural("no-proof", fail_before_fix=None, failure_code=None),
    )
    document = show(skill)
    by_id = {r.regression_id: r for r in document.rows}
    assert (by_id["no-date"].proof_state, by_id["no-proof"].proof_state) == ("never_proven",) * 2
    assert by_id["no-date"].issues == [
        "NEVER_PROVEN: no last_proven: `regressions verify --write` records it when the proof "
        "verifies"
    ]
    assert by_id["no-proof"].issues[0].startswith("NEVER_PROVEN: no fail_before_fix proof")
    assert document.summary.never_proven_fail_before_fix == 2


def test_a_proof_command_is_weak_and_never_established(tmp_path: Path) -> None:
    # The echo proof of the issue: it "fails for the guard's reason" by printing it.
    skill = guarded_skill(tmp_path, registry(record(), record("markers", failure_code=None)))
    document = show(skill)
    for only in document.rows:
        assert (only.proof, only.proof_state) == ("proof_command", "weak")
        assert not only.established_fail_before_fix and only.protected
        assert only.issues[0].startswith("WEAK_PROOF: a proof_command is free-form")
    summary = document.summary
    assert (summary.weak_proof, summary.never_proven_fail_before_fix) == (2, 2)
    code, output = invoke("show", str(skill))
    assert code == 1 and "WEAK PROOF" in output


def test_a_hand_written_last_proven_establishes_nothing(tmp_path: Path) -> None:
    skill = tally_skill(tmp_path, structural(last_proven="2026-01-01"))
    only = row(skill)
    assert (only.established_fail_before_fix, only.proof_state) == (False, "unverified")
    assert only.issues == [
        "UNVERIFIED_LAST_PROVEN: last_proven 2026-01-01 has no matching verification record: "
        "a date written by hand proves nothing (`regressions verify --write` writes both)"
    ]
    assert show(skill).summary.unverified_last_proven == 1
    # A real verification record, with the date edited by hand, is no match either.
    proven = proven_skill(tmp_path / "b")
    path = proven / "fixtures" / "regressions.json"
    document = json.loads(path.read_text())
    document["regressions"][0]["last_proven"] = "2030-01-01"
    path.write_text(json.dumps(document))
    assert row(proven).proof_state == "unverified"


def test_a_proof_goes_stale_when_the_case_or_the_proof_changes(tmp_path: Path) -> None:
    skill = proven_skill(tmp_path)
    fixture = skill / "fixtures" / "agentic_eval.json"
    original = fixture.read_text()
    edited = json.loads(original)
    edited["cases"][0]["expected"]["stdout_contains"] = ["total"]  # a looser oracle
    fixture.write_text(json.dumps(edited))
    only = row(skill)
    assert (only.established_fail_before_fix, only.proof_state) == (False, "stale")
    assert only.issues == [
        "PROOF_STALE: the retained case 'adds' changed since it verified on "
        f"{only.last_proven} (oracle_sha256 differ): the proof is of another guard; "
        "verify it again"
    ]
    command = json.loads(original)
    command["cases"][0]["command"] = ["bash", "../tally.sh", "3", "2"]
    fixture.write_text(json.dumps(command))
    assert "(test_source_sha256 differ)" in row(skill).issues[0]
    fixture.write_text(original)
    assert row(skill).established_fail_before_fix
    path = skill / "fixtures" / "regressions.json"
    document = json.loads(path.read_text())
    document["regressions"][0]["fail_before_fix"]["mutation"]["replace"] = "$1 * $2"
    path.write_text(json.dumps(document))
    only = row(skill)
    assert only.proof_state == "stale" and "the mutation proof changed" in only.issues[0]
    assert show(skill).summary.proof_stale == 1


def test_a_live_proof_goes_stale_by_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skill = guarded_skill(
        tmp_path,
        registry(
            record("live", evidence_class="live_e2e", last_proven="2026-03-01"),
            record("adversarial", evidence_class="adversarial_live_e2e", last_proven="2026-03-01"),
            record("deterministic", evidence_class="deterministic", last_proven="2026-01-01"),
        ),
    )
    freeze_today(monkeypatch, "2026-03-31")  # 30 days: not yet stale
    assert [r.stale_live_proof for r in show(skill).rows] == [False, False, False]
    freeze_today(monkeypatch, "2026-04-01")  # 31 days
    document = show(skill)
    assert [r.stale_live_proof for r in document.rows] == [True, True, False]
    assert document.as_of == "2026-04-01" and document.summary.stale_live_proof == 2
    assert document.rows[0].issues[-1] == (
        "STALE_LIVE_PROOF: live guard last proven 2026-03-01, 31 days ago (more than 30)"
    )
    assert [r.stale_live_proof for r in show(skill, freshness_days=45).rows] == [False] * 3


EXEMPTION = {"reason": "the lane is switched off", "owner": "ops", "expires": "2026-06-30"}


def test_retired_and_exempt_records_are_listed_not_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_today(monkeypatch, "2026-06-30")  # a date-only expires lasts through that day
    skill = guarded_skill(
        tmp_path,
        registry(
            record("old", status="RETIRED", retirement={"reason": "feature removed"}),
            record("waived", status="EXEMPT", retained_case="nowhere", **EXEMPTION),
            record("kept"),
        ),
    )
    document = show(skill)
    assert document.rows[0].issues == ["RETIRED: feature removed"]
    assert document.rows[1].issues[0] == (
        "EXEMPT: listed, not counted, never verified (until 2026-06-30, owner ops: "
        "the lane is switched off)"
    )
    summary = document.summary
    assert (summary.total, summary.active, summary.retired, summary.exempt) == (3, 1, 1, 1)
    assert summary.unprotected == 0


def test_an_expired_exemption_makes_the_record_active_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = guarded_skill(
        tmp_path,
        registry(record("waived", status="EXEMPT", retained_case="nowhere", **EXEMPTION)),
    )
    freeze_today(monkeypatch, "2026-07-01")
    only = row(skill)
    assert (only.status, only.declared_status) == ("ACTIVE", "EXEMPT")
    assert only.issues[:2] == [
        "EXEMPTION_EXPIRED: the exemption expired 2026-06-30 (owner ops): the record is "
        "ACTIVE again",
        "UNPROTECTED: retained case 'nowhere' is not in agentic_eval.json",
    ]
    summary = show(skill).summary
    assert (summary.active, summary.exempt, summary.exemption_expired) == (1, 0, 1)
    assert (summary.unprotected, summary.never_proven_fail_before_fix) == (1, 1)
    assert invoke("show", str(skill))[0] == 1
    [result] = verify_skill(skill).verify.results  # type: ignore[union-attr]
    assert (result.status, result.verdict) == ("ACTIVE", "weak")  # verified again, not skipped


def test_open_incidents_that_no_regression_maps_are_listed(tmp_path: Path) -> None:
    incidents = [
        {"id": "by-id", "issue": "org/repo#1"},
        {"id": "by-issue", "issue": "org/repo#2", "status": "open"},
        {"id": "by-string"},
        {"id": "unmapped", "issue": "org/repo#4", "summary": "nobody guards this"},
        {"id": "closed", "status": "Resolved upstream"},
        {"id": "only-retired", "status": "unresolved"},
    ]
    records = [
        record("a", incident={"id": "by-id", "date": "2026-01-01"}),
        record("b", incident={"issue": "org/repo#2"}),
        record("c", incident="by-string"),
        record("d", incident="only-retired", status="RETIRED", retirement="superseded"),
    ]
    document = show(guarded_skill(tmp_path, registry(*records, incidents=incidents)))
    assert [i.id for i in document.unmapped_incidents] == ["unmapped", "only-retired"]
    assert document.unmapped_incidents[0].summary == "nobody guards this"
    assert document.summary.unmapped_incidents == 2


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["regressions", *args])
    return result.exit_code, result.output


def test_show_exit_codes(tmp_path: Path) -> None:
    clean = proven_skill(tmp_path, name="clean")
    assert invoke("show", str(clean))[0] == 0
    unprotected = guarded_skill(tmp_path, registry(record(retained_case="x")), name="unprotected")
    code, output = invoke("show", str(unprotected))
    assert code == 1 and "UNPROTECTED" in output and "exit 1" in output
    assert invoke("show", str(unprotected), "--report-only")[0] == 0
    unmapped = proven_skill(tmp_path, name="unmapped")
    path = unmapped / "fixtures" / "regressions.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "incidents": [{"id": "i"}]}))
    assert invoke("show", str(unmapped))[0] == 1
    stale = proven_skill(tmp_path, name="stale")
    path = stale / "fixtures" / "regressions.json"
    document = json.loads(path.read_text())
    document["regressions"][0]["evidence_class"] = "live_e2e"
    path.write_text(json.dumps(document))
    with pytest.MonkeyPatch.context() as later:
        freeze_today(later, "2099-01-01")
        code, output = invoke("show", str(stale))
    assert code == 0 and "STALE_LIVE_PROOF" in output  # freshness is reported, not gated


def test_show_exits_2_on_invalid_input(tmp_path: Path) -> None:
    duplicate = guarded_skill(tmp_path, registry(record("x"), record("x")), name="dup")
    code, output = invoke("show", str(duplicate))
    assert code == 2 and "AE-SCHEMA-DUPLICATE" in output and "invalid registry" in output
    assert invoke("show", str(tmp_path / "missing"))[0] == 2
    (tmp_path / "bare").mkdir()
    code, output = invoke("show", str(tmp_path / "bare"))
    assert code == 2 and "no fixtures/regressions.json" in output


def test_show_writes_the_documented_fields(tmp_path: Path) -> None:
    skill = proven_skill(tmp_path)
    output = tmp_path / "show.json"
    assert invoke("show", str(skill), "-o", str(output))[0] == 0
    document = json.loads(output.read_text())
    assert document["schema"] == "agentic_evals.regressions_show.v1"
    assert set(document["rows"][0]) >= {
        "regression_id",
        "status",
        "protected",
        "established_fail_before_fix",
        "stale_live_proof",
        "issues",
    }
    assert set(document["summary"]) == {
        "total",
        "active",
        "unprotected",
        "never_proven_fail_before_fix",
        "weak_proof",
        "unverified_last_proven",
        "proof_stale",
        "exemption_expired",
        "stale_live_proof",
        "retired",
        "exempt",
        "unmapped_incidents",
    }


def test_audit_walks_skills_skips_foreign_files_and_keeps_going(tmp_path: Path) -> None:
    guarded_skill(tmp_path, registry(record()), name="a-good")
    guarded_skill(tmp_path, registry(record(retained_case="gone")), name="b-unprotected")
    foreign = guarded_skill(tmp_path, registry(record()), name="c-local")
    (foreign / "fixtures" / "regressions.local.json").write_text(
        json.dumps({"schema_version": "other.v1", "incidents": []})
    )
    guarded_skill(tmp_path, {"schema": "other.v2"}, name="d-foreign")
    (tmp_path / "e-no-registry").mkdir()
    document = audit_tree(tmp_path)
    assert [s.skill for s in document.skills] == ["a-good", "b-unprotected", "c-local"]
    assert [(s.skill, s.reason) for s in document.skipped] == [
        ("c-local", "not an agentic-evals regression registry: it declares 'other.v1'"),
        ("d-foreign", "not an agentic-evals regression registry: it declares 'other.v2'"),
    ]
    assert document.summary.regressions.unprotected == 1
    assert invoke("audit", str(tmp_path))[0] == 1
    assert invoke("audit", str(tmp_path), "--report-only")[0] == 0
    guarded_skill(tmp_path, registry(record("x"), record("x")), name="f-invalid")
    output = tmp_path / "audit.json"
    code, _ = invoke("audit", str(tmp_path), "-o", str(output))
    written = json.loads(output.read_text())
    assert code == 2 and written["summary"]["invalid"] == 1 and written["summary"]["skills"] == 4
    assert invoke("audit", str(tmp_path / "nope"))[0] == 2


@pytest.mark.parametrize("command", ["show", "audit", "verify", "add"])
def test_every_regressions_command_has_help_with_an_example(command: str) -> None:
    code, output = invoke(command, "--help")
    assert code == 0 and f"Example: agentic-evals regressions {command}" in output
