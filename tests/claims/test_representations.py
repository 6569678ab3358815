"""Invariant-derived claims: representation matrices, the seam, independence (SPEC 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claims_helpers import claim, claim_of, det_case, document, run_doc, write

from agentic_evals.contract.vocabulary import MATRICES, DomainProfile
from agentic_evals.evidence.gates import load_fixture

JSON_SCALARS = ("string", "integer", "float", "scientific_notation")
SEAM = {
    "seam_id": "values",
    "seam_type": "value-representation",
    "criticality": "critical",
    "required_evidence": ["deterministic"],
    "claim_id": "v",
}


def value_claim(profile: str = "json-scalar-v1") -> dict[str, Any]:
    return claim("v", ("deterministic",), claim_semantics="value_bearing", domain_profile=profile)


def rep_case(rep: str, case_type: str = "adversarial", passes: bool = True) -> dict[str, Any]:
    return det_case(f"{case_type}-{rep}", ("v",), passes=passes, type=case_type, representation=rep)


def run_reps(tmp_path: Path, cases: list[dict[str, Any]], profile: str = "json-scalar-v1") -> Any:
    return claim_of(run_doc(tmp_path, document([value_claim(profile)], cases, seams=[SEAM])), "v")


def test_the_matrices_are_exact() -> None:
    assert MATRICES == {
        "json-scalar-v1": JSON_SCALARS,
        "sqlite-type-v1": ("TEXT", "INTEGER", "REAL"),
        "csv-cell-v1": ("quoted", "unquoted"),
    }


def test_every_representation_needs_a_passing_adversarial_case(tmp_path: Path) -> None:
    judged = run_reps(tmp_path, [rep_case(rep) for rep in JSON_SCALARS[:3]])
    assert judged.per_class == {"deterministic": "PROVEN"}
    assert judged.required_representations == list(JSON_SCALARS)
    assert judged.missing_representations == ["scientific_notation"]
    assert judged.verdict == "PARTIALLY_PROVEN"
    judged = run_reps(tmp_path, [rep_case(rep) for rep in JSON_SCALARS])
    assert (judged.missing_representations, judged.verdict) == ([], "PROVEN")


@pytest.mark.parametrize(
    "last",
    [
        rep_case("scientific_notation", case_type="positive"),  # not adversarial
        rep_case("scientific_notation", case_type="negative"),  # not adversarial either
        {**rep_case("scientific_notation"), "required": False},  # not eligible
    ],
)
def test_only_eligible_adversarial_cases_cover_a_representation(
    tmp_path: Path, last: dict[str, Any]
) -> None:
    judged = run_reps(tmp_path, [*(rep_case(rep) for rep in JSON_SCALARS[:3]), last])
    assert judged.missing_representations == ["scientific_notation"]
    assert judged.verdict != "PROVEN"


def test_a_failing_representation_is_missing_and_fails_the_claim(tmp_path: Path) -> None:
    cases = [rep_case(rep) for rep in JSON_SCALARS[:3]]
    judged = run_reps(tmp_path, [*cases, rep_case("scientific_notation", passes=False)])
    assert judged.missing_representations == ["scientific_notation"]
    assert judged.verdict == "FAILED"


@pytest.mark.parametrize("profile", ["sqlite-type-v1", "csv-cell-v1"])
def test_each_profile_has_its_own_matrix(tmp_path: Path, profile: DomainProfile) -> None:
    reps = MATRICES[profile]
    judged = run_reps(tmp_path, [rep_case(reps[0])], profile)
    assert judged.missing_representations == list(reps[1:])
    judged = run_reps(tmp_path, [rep_case(rep) for rep in reps], profile)
    assert judged.verdict == "PROVEN"


def test_claims_that_are_not_value_bearing_have_no_matrix(tmp_path: Path) -> None:
    judged = claim_of(
        run_doc(tmp_path, document([claim(required=("deterministic",))], [det_case()]))
    )
    assert (judged.required_representations, judged.missing_representations) == ([], [])
    assert (judged.value_representation_seam, judged.independence) == (None, None)


@pytest.mark.parametrize(
    ("seams", "declared"),
    [
        ([SEAM], True),
        ([{**SEAM, "claim_id": None}], True),
        ([{**SEAM, "criticality": "important"}], False),
        ([{**SEAM, "seam_type": "serialization"}], False),
        ([{**SEAM, "claim_id": "other"}], False),
    ],
)
def test_a_value_bearing_claim_needs_a_critical_value_representation_seam(
    tmp_path: Path, seams: list[dict[str, Any]], declared: bool
) -> None:
    seams = [{k: v for k, v in seam.items() if v is not None} for seam in seams]
    doc = document(
        [value_claim(), claim("other", ("deterministic",))], [rep_case("string")], seams=seams
    )
    loaded = load_fixture(write(tmp_path, doc))
    warned = [(f.code, f.pointer) for f in loaded.warnings if f.code == "AE-CLAIM-SEAM"]
    assert warned == ([] if declared else [("AE-CLAIM-SEAM", "/capability_claims/0")])
    assert claim_of(run_doc(tmp_path, doc), "v").value_representation_seam is declared


@pytest.mark.parametrize(
    ("producer", "verifiers", "independent", "beyond"),
    [
        (["integer"], ["integer"], False, []),
        (["integer", "string"], ["string"], False, []),
        (["integer"], ["integer", "string"], True, ["string"]),
        ([], ["float"], True, ["float"]),
        (list(JSON_SCALARS), list(JSON_SCALARS), False, []),
    ],
)
def test_verifiers_must_reach_beyond_the_producers_representations(
    tmp_path: Path, producer: list[str], verifiers: list[str], independent: bool, beyond: list[str]
) -> None:
    cases = [rep_case(rep, case_type="positive") for rep in producer]
    cases += [rep_case(rep) for rep in verifiers]
    judged = run_reps(tmp_path, cases)
    assert judged.independence is not None
    assert judged.independence.independent is independent
    assert judged.independence.verifier_only_representations == beyond
    assert judged.independence.producer_cases == [f"positive-{rep}" for rep in producer]
