"""Loading a regression registry: defaults, aliases, and located errors with codes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from builders import REPO
from regression_helpers import SCHEMA, guarded_skill, record, registry

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
    for document in (own, registry(record()), registry(record(status="EXEMPT"), incidents=[])):
        assert list(validator.iter_errors(document)) == []
    assert list(validator.iter_errors(registry(record(status="LIVE"))))
    assert schema["properties"]["schema"]["const"] == SCHEMA
