"""Schema errors as findings: codes, pointers, readable messages; unknown keys."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_evals.contract.load import FIXTURE
from agentic_evals.contract.models import Fixture
from agentic_evals.documents.pipeline import validator
from agentic_evals.documents.schema import schema_findings
from agentic_evals.documents.unknown_keys import unknown_key_findings
from agentic_evals.documents.yaml_io import parse_bytes


def errors(document: Any) -> list[tuple[str, str, str]]:
    return [
        (f.code, f.pointer, f.message) for f in schema_findings(validator(FIXTURE), document, {})
    ]


def case(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "c",
        "type": "negative",
        "command": ["bash", "run.sh"],
        "expected": {"exit_code": 1},
        **overrides,
    }


def fixture(*cases: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"version": 2, "skill": "s", "cases": list(cases) or [case()], **top}


def test_valid_document_has_no_schema_errors(base_doc: dict[str, Any]) -> None:
    assert errors(base_doc) == []


def test_string_where_list_expected() -> None:
    doc = fixture(case(expected={"exit_code": 0, "stdout_contains": "ok"}))
    assert errors(doc) == [
        (
            "AE-SCHEMA-TYPE",
            "/cases/0/expected/stdout_contains",
            "expected a list of strings, got a string",
        )
    ]


def test_boolean_where_integer_expected() -> None:
    doc = fixture(case(expected={"exit_code": True}))
    assert errors(doc) == [
        ("AE-SCHEMA-TYPE", "/cases/0/expected/exit_code", "expected an integer, got a boolean")
    ]


def test_float_is_not_an_integer() -> None:
    doc = fixture(case(expected={"exit_code": 1.0}), trials=2.0)
    assert {(code, at) for code, at, _ in errors(doc)} == {
        ("AE-SCHEMA-TYPE", "/cases/0/expected/exit_code"),
        ("AE-SCHEMA-TYPE", "/trials"),
    }


def test_string_false_is_not_a_boolean() -> None:
    assert errors(fixture(case(required="false"))) == [
        ("AE-SCHEMA-TYPE", "/cases/0/required", "expected a boolean, got a string")
    ]


def test_null_for_optional_field_is_a_type_error() -> None:
    assert errors(fixture(case(timeout_seconds=None))) == [
        ("AE-SCHEMA-TYPE", "/cases/0/timeout_seconds", "expected a number, got null")
    ]


def test_null_stays_valid_for_json_values() -> None:
    check = {"path": "out.json", "json_pointer": "/a", "equals": None}
    assert errors(fixture(case(expected={"exit_code": 0, "artifacts": [check]}))) == []


def test_missing_key_points_at_parent_and_names_it() -> None:
    assert errors(fixture(case(expected={}))) == [
        ("AE-SCHEMA-REQUIRED", "/cases/0/expected", "missing required key 'exit_code'")
    ]
    missing_all = errors({"version": 2})
    assert ("AE-SCHEMA-REQUIRED", "", "missing required key 'cases'") in missing_all
    assert ("AE-SCHEMA-REQUIRED", "", "missing required key 'skill'") in missing_all


@pytest.mark.parametrize("version", [1, 3, "2", True, 2.5, None])
def test_version_other_than_2(version: object) -> None:
    assert [(code, at) for code, at, _ in errors(fixture(version=version))] == [
        ("AE-SCHEMA-VERSION", "/version")
    ]


def test_enum_value_with_suggestion() -> None:
    (found,) = errors(fixture(case(type="negativ")))
    assert found[:2] == ("AE-SCHEMA-VALUE", "/cases/0/type")
    assert "did you mean 'negative'?" in found[2]


@pytest.mark.parametrize(
    ("overrides", "pointer"),
    [
        ({"name": ""}, "/cases/0/name"),
        ({"command": []}, "/cases/0/command"),
        ({"timeout_seconds": 0}, "/cases/0/timeout_seconds"),
        (
            {"expected": {"exit_code": 0, "artifacts": [{"path": "a", "min_bytes": -1}]}},
            "/cases/0/expected/artifacts/0/min_bytes",
        ),
        (
            {"expected": {"exit_code": 0, "artifacts": [{"path": "a", "sha256": "abc"}]}},
            "/cases/0/expected/artifacts/0/sha256",
        ),
    ],
)
def test_out_of_range_values(overrides: dict[str, Any], pointer: str) -> None:
    assert [(code, at) for code, at, _ in errors(fixture(case(**overrides)))] == [
        ("AE-SCHEMA-VALUE", pointer)
    ]


def test_pattern_dollar_does_not_accept_a_final_newline() -> None:
    digest = "a" * 64 + "\n"
    doc = fixture(case(expected={"exit_code": 0, "artifacts": [{"path": "a", "sha256": digest}]}))
    assert [code for code, _, _ in errors(doc)] == ["AE-SCHEMA-VALUE"]


def test_trials_below_one() -> None:
    assert errors(fixture(trials=0)) == [
        ("AE-SCHEMA-VALUE", "/trials", "must be at least 1, got 0")
    ]


def test_union_errors_pick_the_branch_that_fits() -> None:
    claim = {"id": "c", "claim_semantics": "other", "evidence_required": {"live": True}}
    (found,) = errors(fixture(capability_claims=[claim]))
    assert found[:2] == ("AE-SCHEMA-VALUE", "/capability_claims/0/evidence_required/live")
    assert "did you mean 'live_e2e'?" in found[2]
    claim["evidence_required"] = ["live_e2e", "nope"]
    assert [at for _, at, _ in errors(fixture(capability_claims=[claim]))] == [
        "/capability_claims/0/evidence_required/1"
    ]


def test_union_type_error_names_every_accepted_type() -> None:
    claim = {"id": "c", "evidence_required": "live_e2e"}
    assert errors(fixture(capability_claims=[claim])) == [
        (
            "AE-SCHEMA-TYPE",
            "/capability_claims/0/evidence_required",
            "expected an object or a list of strings, got a string",
        )
    ]


def test_all_errors_are_reported_in_document_order() -> None:
    text = (
        b"version: 2\nskill: s\ntrials: true\ncases:\n"
        b"  - name: a\n    type: pos\n    command: x\n    expected: {exit_code: '0'}\n"
    )
    parsed = parse_bytes(text, "yaml")
    found = schema_findings(validator(FIXTURE), parsed.value, parsed.positions)
    assert [(f.pointer, f.line) for f in found] == [
        ("/trials", 3),
        ("/cases/0/type", 6),
        ("/cases/0/command", 7),
        ("/cases/0/expected/exit_code", 8),
    ]


def test_non_object_document() -> None:
    assert errors([1, 2]) == [("AE-SCHEMA-TYPE", "", "expected an object, got a list")]


def test_unknown_keys_are_warnings_with_suggestion() -> None:
    doc = fixture(case(nmae="x", notes="free text"), trails=3)
    found = unknown_key_findings(doc, Fixture, {})
    assert {(f.pointer, f.severity) for f in found} == {
        ("/cases/0/nmae", "warning"),
        ("/cases/0/notes", "warning"),
        ("/trails", "warning"),
    }
    messages = {f.pointer: f.message for f in found}
    assert "did you mean 'name'?" in messages["/cases/0/nmae"]
    assert "did you mean 'trials'?" in messages["/trails"]
    assert "did you mean" not in messages["/cases/0/notes"]
    assert all(f.code == "AE-SCHEMA-UNKNOWN" for f in found)


def test_unknown_keys_are_errors_under_strict() -> None:
    found = unknown_key_findings(fixture(case(nmae="x")), Fixture, {}, strict=True)
    assert [(f.pointer, f.severity) for f in found] == [("/cases/0/nmae", "error")]


def test_unknown_keys_are_found_in_nested_models_only() -> None:
    check = {"path": "a", "json_pointr": "/x", "equals": {"free": "form"}}
    doc = fixture(
        case(env={"ANY_NAME": "ok"}, expected={"exit_code": 0, "artifacts": [check]}),
        claims={"proves": "x", "extra": 1},
        capability_claims=[
            {
                "id": "c",
                "claim_semantics": "other",
                "evidence_required": {"live_e2e": True},
                "exemptions": [{"owner": "me", "ownr": "typo"}],
            }
        ],
    )
    pointers = {f.pointer for f in unknown_key_findings(doc, Fixture, {})}
    assert pointers == {
        "/cases/0/expected/artifacts/0/json_pointr",
        "/claims/extra",
        "/capability_claims/0/exemptions/0/ownr",
    }
