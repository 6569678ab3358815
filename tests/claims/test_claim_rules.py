"""Load-time rules of capability claims: each with its pointer, code and severity (SPEC 4-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claims_helpers import claim, det_case, document, live_case, write

from agentic_evals.evidence.gates import load_fixture

Finding = tuple[str, str, str]


def findings(tmp_path: Path, doc: dict[str, Any]) -> set[Finding]:
    loaded = load_fixture(write(tmp_path, doc))
    found = {(f.code, f.pointer, str(f.severity)) for f in loaded.findings}
    assert loaded.ok is not any(severity == "error" for _, _, severity in found)
    return found


def value_claim(**fields: Any) -> dict[str, Any]:
    return claim(
        "v",
        ("deterministic",),
        claim_semantics="value_bearing",
        domain_profile="sqlite-type-v1",
        **fields,
    )


SEAM = {"seam_id": "s", "seam_type": "value-representation", "required_evidence": ["deterministic"]}


def test_a_sound_claims_fixture_loads_without_findings(tmp_path: Path) -> None:
    cases = [live_case(), det_case("rep", ("v",), type="adversarial", representation="REAL")]
    assert findings(tmp_path, document([claim(), value_claim()], cases, seams=[SEAM])) == set()


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            {"evidence_required": {"livee2e": True}},
            ("AE-SCHEMA-VALUE", "/capability_claims/0/evidence_required/livee2e", "error"),
        ),
        (
            {"evidence_required": ["live_e2e", "smoke"]},
            ("AE-SCHEMA-VALUE", "/capability_claims/0/evidence_required/1", "error"),
        ),
        (
            {"evidence_required": []},
            ("AE-SCHEMA-VALUE", "/capability_claims/0/evidence_required", "error"),
        ),
        (
            {"evidence_required": {"live_e2e": False}},
            ("AE-SCHEMA-CLAIM", "/capability_claims/0/evidence_required", "error"),
        ),
        ({"claim_semantics": None}, ("AE-SCHEMA-CLAIM", "/capability_claims/0", "error")),
        (
            {"claim_semantics": "value_bearing"},
            ("AE-SCHEMA-CLAIM", "/capability_claims/0", "error"),
        ),
        (
            {"exemptions": [{"evidence_class": "live-e2e"}]},
            ("AE-SCHEMA-VALUE", "/capability_claims/0/exemptions/0/evidence_class", "error"),
        ),
        (
            {"exemptions": [{"evidence_class": "live_e2e", "owner": "me"}]},
            ("AE-CLAIM-EXEMPTION", "/capability_claims/0/exemptions/0", "warning"),
        ),
    ],
)
def test_claim_field_rules(tmp_path: Path, edit: dict[str, Any], expected: Finding) -> None:
    base = claim()
    base.update(edit)
    doc = document([{k: v for k, v in base.items() if v is not None}], [live_case()])
    assert expected in findings(tmp_path, doc)


def test_critical_claims_need_semantics_and_others_do_not(tmp_path: Path) -> None:
    important = {k: v for k, v in claim(criticality="important").items() if k != "claim_semantics"}
    assert findings(tmp_path, document([important], [live_case()])) == set()


def test_duplicate_claim_ids_and_undeclared_claims(tmp_path: Path) -> None:
    doc = document([claim(), claim()], [live_case(claims=("c", "cc"))])
    found = findings(tmp_path, doc)
    assert ("AE-SCHEMA-DUPLICATE", "/capability_claims/1/id", "error") in found
    assert ("AE-SCHEMA-REFERENCE", "/cases/0/supports_claims/1", "error") in found


def test_an_unknown_case_evidence_class_is_rejected(tmp_path: Path) -> None:
    doc = document([claim()], [live_case(evidence_class="live")])
    assert ("AE-SCHEMA-VALUE", "/cases/0/evidence_class", "error") in findings(tmp_path, doc)


def test_a_representation_outside_the_matrix_is_an_error(tmp_path: Path) -> None:
    case = det_case("rep", ("v",), type="adversarial", representation="integer")
    loaded = load_fixture(write(tmp_path, document([value_claim()], [case], seams=[SEAM])))
    (error,) = loaded.errors
    assert (error.code, error.pointer) == ("AE-CLAIM-REPRESENTATION", "/cases/0/representation")
    assert "did you mean 'INTEGER'?" in error.message
    assert "TEXT, INTEGER, REAL" in error.message


def test_a_representation_without_a_value_bearing_claim_is_a_warning(tmp_path: Path) -> None:
    doc = document([claim()], [live_case(representation="integer")])
    assert findings(tmp_path, doc) == {
        ("AE-CLAIM-REPRESENTATION", "/cases/0/representation", "warning")
    }


def test_a_value_bearing_claim_without_its_seam_is_a_warning(tmp_path: Path) -> None:
    case = det_case("rep", ("v",), type="adversarial", representation="TEXT")
    assert findings(tmp_path, document([value_claim()], [case])) == {
        ("AE-CLAIM-SEAM", "/capability_claims/0", "warning")
    }


@pytest.mark.parametrize(
    ("exemption", "pointer"),
    [
        ({"expires": "soon"}, "/capability_claims/0/exemptions/0/expires"),
        (
            {"evidence_class": "human_evaluation"},
            "/capability_claims/0/exemptions/0/evidence_class",
        ),
        ({"owner": " "}, "/capability_claims/0/exemptions/0"),
    ],
)
def test_exemptions_that_will_be_ignored_are_warnings(
    tmp_path: Path, exemption: dict[str, str], pointer: str
) -> None:
    complete = {
        "evidence_class": "live_e2e",
        "reason_code": "r",
        "justification": "j",
        "owner": "o",
        "expires": "2030-01-01",
    }
    doc = document([claim(exemptions=[{**complete, **exemption}])], [live_case()])
    assert findings(tmp_path, doc) == {("AE-CLAIM-EXEMPTION", pointer, "warning")}


def test_a_case_may_be_admitted_only_once(tmp_path: Path) -> None:
    entry = {"case": "live", "oracle_sha256": "0" * 64}
    doc = document([claim(admitted_evidence=[entry, entry])], [live_case()])
    assert ("AE-SCHEMA-DUPLICATE", "/capability_claims/0/admitted_evidence/1/case", "error") in (
        findings(tmp_path, doc)
    )
