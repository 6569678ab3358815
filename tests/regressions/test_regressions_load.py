"""Loading a regression registry: defaults, aliases, and located errors with codes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from builders import REPO
from regression_helpers import SCHEMA, guarded_skill, mutation, record, registry, structural

from agentic_evals.regressions.load import RegistryLoad, is_foreign, load_registry


def load(tmp_path: Path, document: object) -> RegistryLoad:
    return load_registry(guarded_skill(tmp_path, document) / "fixtures" / "regressions.json")


def codes_at(loaded: RegistryLoad) -> set[tuple[str, str, str]]:
    return {(f.severity, f.code, f.pointer) for f in loaded.findings}


def test_a_minimal_record_takes_the_documented_defaults(tmp_path: Path) -> None:
    minimal = {"regression_id": "r", "retained_case": "guard"}
    loaded = load(tmp_path, registry(minimal))
    assert loaded.findings == [] and loaded.model is not None
    only = loaded.model.regressions[0]
    assert only.status == "ACTIVE"
    assert only.retained_fixture == "agentic_eval.json"
    assert only.fail_before_fix is None and only.proof_command == []
    proof = load(tmp_path / "b", registry(record())).model
    assert proof is not None and proof.regressions[0].fail_before_fix is not None
    assert proof.regressions[0].fail_before_fix.expected_fail is True


def test_a_duplicate_regression_id_is_an_error_at_the_repeat(tmp_path: Path) -> None:
    loaded = load(tmp_path, registry(record("same"), record("other"), record("same")))
    assert loaded.model is None
    [error] = loaded.errors
    assert (error.code, error.pointer) == ("AE-SCHEMA-DUPLICATE", "/regressions/2/regression_id")
    assert "first at /regressions/0" in error.message
    assert error.file is not None and error.file.endswith("regressions.json")
    assert error.line is not None and error.column is not None
    assert error.render().startswith(f"{error.file}:{error.line}:{error.column} /regressions/2")


def test_retired_needs_a_retirement(tmp_path: Path) -> None:
    loaded = load(tmp_path, registry(record(status="RETIRED")))
    assert codes_at(loaded) == {("error", "AE-REG-RETIREMENT", "/regressions/0")}
    assert loaded.model is None
    for retirement in ("guard moved to the unit tests", {"date": "2026-05-01", "reason": "gone"}):
        ok = load(
            tmp_path / str(len(str(retirement))),
            registry(record(status="RETIRED", retirement=retirement)),
        )
        assert ok.model is not None and ok.findings == []
    empty = load(tmp_path / "empty", registry(record(status="RETIRED", retirement={})))
    assert "AE-SCHEMA-VALUE" in {f.code for f in empty.errors}


def test_an_unknown_status_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    loaded = load(tmp_path, registry(record(status="ACTIV")))
    [error] = loaded.errors
    assert (error.code, error.pointer) == ("AE-SCHEMA-VALUE", "/regressions/0/status")
    assert "did you mean 'ACTIVE'?" in error.message


def test_wrong_types_and_missing_fields_are_all_reported(tmp_path: Path) -> None:
    bad = record(claim_ids="one.claim", fail_before_fix={"proof_command": "bash -c 'exit 1'"})
    del bad["retained_case"]
    loaded = load(tmp_path, registry(bad, {"retained_case": "guard"}))
    assert loaded.model is None
    assert {(f.code, f.pointer) for f in loaded.errors} == {
        ("AE-SCHEMA-TYPE", "/regressions/0/claim_ids"),
        ("AE-SCHEMA-TYPE", "/regressions/0/fail_before_fix/proof_command"),
        ("AE-SCHEMA-REQUIRED", "/regressions/0"),
        ("AE-SCHEMA-REQUIRED", "/regressions/1"),
    }
    messages = {f.message for f in loaded.errors}
    assert "missing required key 'retained_case'" in messages
    assert "missing required key 'regression_id'" in messages
    assert "expected a list of strings, got a string" in messages


def test_a_document_without_schema_or_regressions_is_rejected(tmp_path: Path) -> None:
    loaded = load(tmp_path, {"regressions": []})
    assert {(f.code, f.message) for f in loaded.errors} == {
        ("AE-SCHEMA-REQUIRED", "missing required key 'schema'")
    }
    assert {f.code for f in load(tmp_path / "b", "{not json").errors} == {"AE-SCHEMA-SYNTAX"}


def test_aliases_load_with_warnings_and_resolve(tmp_path: Path) -> None:
    aliased = record(
        claims_threatened=["c.one"],
        seams=["s.one"],
        last_proven=None,
        fail_before_fix={"proof_command": ["true"], "last_proven": "2026-09-02T21:41:44+00:00"},
    )
    loaded = load(tmp_path, registry(aliased))
    assert loaded.model is not None
    assert codes_at(loaded) == {
        ("warning", "AE-REG-ALIAS", "/regressions/0/claims_threatened"),
        ("warning", "AE-REG-ALIAS", "/regressions/0/seams"),
        ("warning", "AE-REG-ALIAS", "/regressions/0/fail_before_fix/last_proven"),
    }
    only = loaded.model.regressions[0]
    assert (only.claims, only.seam_list) == (["c.one"], ["s.one"])
    assert only.proven_on == "2026-09-02T21:41:44+00:00"


def test_an_alias_that_disagrees_with_its_key_is_a_conflict(tmp_path: Path) -> None:
    both = record(claim_ids=["a"], claims_threatened=["b"], seam_ids=["s"], seams=["s"])
    loaded = load(tmp_path, registry(both))
    assert codes_at(loaded) == {
        ("error", "AE-SCHEMA-CONFLICT", "/regressions/0/claims_threatened"),
        ("warning", "AE-REG-ALIAS", "/regressions/0/seams"),
    }


def test_unknown_keys_warn_with_a_suggestion_and_load(tmp_path: Path) -> None:
    extra = record(evidence_clas="live_e2e", rationale="why")
    extra["fail_before_fix"] = {
        "proof_command": ["true"],
        "expected": "non-zero exit with the failure code",
        "proven_date": "2026-08-18",
    }
    loaded = load(tmp_path, registry(extra, skill="demo", note="prose"))
    assert loaded.model is not None and loaded.errors == []
    warnings = {f.pointer: f.message for f in loaded.warnings}
    assert set(warnings) == {
        "/regressions/0/evidence_clas",
        "/regressions/0/rationale",
        "/regressions/0/fail_before_fix/expected",
        "/regressions/0/fail_before_fix/proven_date",
    }
    assert "did you mean 'evidence_class'?" in warnings["/regressions/0/evidence_clas"]
    kept = loaded.model.regressions[0].model_extra or {}
    assert kept["rationale"] == "why"


def test_dates_and_paths_are_checked(tmp_path: Path) -> None:
    bad = record(
        last_proven="2026-02-30",
        retained_fixture="../../elsewhere.json",
        fail_before_fix={"proof_command": ["true"], "cwd": "/tmp"},
    )
    loaded = load(tmp_path, registry(bad))
    assert {(f.code, f.pointer) for f in loaded.errors} == {
        ("AE-SCHEMA-VALUE", "/regressions/0/last_proven"),
        ("AE-PATH-ESCAPE", "/regressions/0/retained_fixture"),
        ("AE-PATH-ESCAPE", "/regressions/0/fail_before_fix/cwd"),
    }
    sibling = load(tmp_path / "ok", registry(record(retained_fixture="../tests/guard.json")))
    assert sibling.errors == []


def test_another_tools_document_is_not_a_registry(tmp_path: Path) -> None:
    foreign = {"schema_version": "ai_detection.development_regressions.v1", "incidents": []}
    loaded = load(tmp_path, foreign)
    assert is_foreign(loaded) and loaded.model is None
    [finding] = loaded.findings
    assert finding.code == "AE-REG-FOREIGN" and "ai_detection" in finding.message
    assert is_foreign(load(tmp_path / "b", {"schema": "something.else.v3"}))
    assert not is_foreign(load(tmp_path / "c", {"regressions": []}))


def test_valid_registries_pass_the_committed_schema(tmp_path: Path) -> None:
    schema = json.loads((REPO / "schemas" / "regressions.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    own = json.loads((REPO / "fixtures" / "regressions.json").read_text())
    exempt = record(status="EXEMPT", reason="off", owner="ops", expires="2027-01-01")
    for document in (own, registry(record()), registry(exempt, incidents=[])):
        assert list(validator.iter_errors(document)) == []
    assert list(validator.iter_errors(registry(record(status="LIVE"))))
    assert schema["properties"]["schema"]["const"] == SCHEMA


GENERIC = [
    "error",
    "failed",
    "Traceback",
    "Traceback (most recent call last)",
    "No such file or directory",
    "exit 1",
    "exit status 2",
    "non-zero exit status",
    "AssertionError",
    "test failed",
]


@pytest.mark.parametrize("code", GENERIC)
def test_a_generic_failure_code_is_a_load_error_with_its_pointer(tmp_path: Path, code: str) -> None:
    for index, made in enumerate((record(failure_code=code), structural(failure_code=code))):
        loaded = load(tmp_path / str(index), registry(made))
        assert loaded.model is None
        [error] = loaded.errors
        assert (error.code, error.pointer) == ("AE-REG-GENERIC-CODE", "/regressions/0/failure_code")
        assert f"failure_code {code!r} is generic" in error.message
        assert error.line is not None


@pytest.mark.parametrize(
    "code", ["gate_exits_zero_on_non_ready", "surf_tab_list_failed", "AssertionError: NO_TAB"]
)
def test_specific_text_is_no_generic_code(tmp_path: Path, code: str) -> None:
    assert load(tmp_path, registry(record(failure_code=code))).errors == []


def test_a_tool_code_in_another_case_gets_a_hint(tmp_path: Path) -> None:
    [error] = load(tmp_path, registry(structural(failure_code="exit_code"))).errors
    assert error.code == "AE-REG-GENERIC-CODE" and "did you mean 'EXIT_CODE'?" in error.message


def test_a_structural_proof_names_a_tool_code_or_an_oracle_pointer(tmp_path: Path) -> None:
    for index, code in enumerate(("EXIT_CODE", "ARTIFACT_MISMATCH", "/expected/artifacts/2")):
        assert load(tmp_path / str(index), registry(structural(failure_code=code))).errors == []
    text = load(tmp_path / "text", registry(structural(failure_code="total_is_wrong")))
    assert codes_at(text) == {("error", "AE-REG-FAILURE-CODE", "/regressions/0/failure_code")}
    none = load(tmp_path / "none", registry(structural(failure_code=None)))
    assert codes_at(none) == {("error", "AE-REG-FAILURE-CODE", "/regressions/0")}


def test_a_proof_has_one_structural_form(tmp_path: Path) -> None:
    two = structural(fail_before_fix={**mutation(), "git_ref": "a" * 40})
    assert codes_at(load(tmp_path / "two", registry(two))) == {
        ("error", "AE-REG-PROOF-FORM", "/regressions/0/fail_before_fix")
    }
    beside = structural(fail_before_fix={**mutation(), "proof_command": ["true"]})
    loaded = load(tmp_path / "beside", registry(beside))
    assert loaded.model is not None
    assert codes_at(loaded) == {
        ("warning", "AE-REG-PROOF-FORM", "/regressions/0/fail_before_fix/proof_command")
    }
    assert loaded.model.regressions[0].proof_form == "mutation"
    passing = structural(fail_before_fix={**mutation(), "expected_fail": False})
    assert codes_at(load(tmp_path / "pass", registry(passing))) == {
        ("error", "AE-REG-PROOF-FORM", "/regressions/0/fail_before_fix/expected_fail")
    }
    same = structural(fail_before_fix=mutation(find="x", replace="x"))
    assert codes_at(load(tmp_path / "same", registry(same))) == {
        ("error", "AE-REG-PROOF-FORM", "/regressions/0/fail_before_fix/mutation/replace")
    }


def test_proof_paths_stay_in_the_skill_and_refs_are_commits(tmp_path: Path) -> None:
    escapes = [
        structural("patch", fail_before_fix={"patch": "../../bug.patch"}),
        structural(
            "mutation", fail_before_fix={"mutation": {**mutation()["mutation"], "path": "/etc/x"}}
        ),
        structural("branch", fail_before_fix={"git_ref": "main"}),
        structural("short", fail_before_fix={"git_ref": "a1b2c3d"}),
        structural("zero", fail_before_fix={**mutation(count=0)}),
    ]
    loaded = load(tmp_path, registry(*escapes))
    assert {(f.code, f.pointer) for f in loaded.errors} == {
        ("AE-PATH-ESCAPE", "/regressions/0/fail_before_fix/patch"),
        ("AE-PATH-ESCAPE", "/regressions/1/fail_before_fix/mutation/path"),
        ("AE-REG-PROOF-FORM", "/regressions/2/fail_before_fix/git_ref"),
        ("AE-REG-PROOF-FORM", "/regressions/3/fail_before_fix/git_ref"),
        ("AE-SCHEMA-VALUE", "/regressions/4/fail_before_fix/mutation/count"),
    }
    fine = [
        structural("patch", fail_before_fix={"patch": "regressions/bug.patch"}),
        structural("up", fail_before_fix={"patch": "../bug.patch"}),
        structural("ref", fail_before_fix={"git_ref": "0123456789abcdef0123456789abcdef01234567"}),
    ]
    assert load(tmp_path / "fine", registry(*fine)).errors == []


def test_exempt_needs_reason_owner_and_expires(tmp_path: Path) -> None:
    bare = load(tmp_path / "bare", registry(record(status="EXEMPT")))
    [error] = bare.errors
    assert (error.code, error.pointer) == ("AE-REG-EXEMPTION", "/regressions/0")
    assert "an EXEMPT regression needs reason, owner, expires" in error.message
    partial = load(tmp_path / "partial", registry(record(status="EXEMPT", reason="r", owner=" ")))
    assert "needs owner, expires" in partial.errors[0].message
    unreadable = record(status="EXEMPT", reason="r", owner="o", expires="next week")
    [error] = load(tmp_path / "bad", registry(unreadable)).errors
    assert (error.code, error.pointer) == ("AE-REG-EXEMPTION", "/regressions/0/expires")
    for expires in ("2027-01-01", "2027-01-01T12:00:00Z", "2000-01-01"):  # expired still loads
        ok = record(status="EXEMPT", reason="r", owner="o", expires=expires)
        assert load(tmp_path / expires[:4] / expires[-3:], registry(ok)).errors == []


def test_a_verification_record_is_checked(tmp_path: Path) -> None:
    digest = "a" * 64
    verification = {
        "date": "2026-02-30",
        "proof": "mutation",
        "proof_sha256": digest,
        "test_source_sha256": "not a hash",
        "oracle_sha256": digest,
    }
    loaded = load(tmp_path, registry(structural(verification=verification)))
    assert {(f.code, f.pointer) for f in loaded.errors} == {
        ("AE-SCHEMA-VALUE", "/regressions/0/verification/date"),
        ("AE-SCHEMA-VALUE", "/regressions/0/verification/test_source_sha256"),
    }
