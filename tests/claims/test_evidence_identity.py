"""Evidence identity: admitted hashes pin the cases that may fill a claim's slot (SPEC 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claims_helpers import claim, claim_of, det_case, document, live_case, run_doc, write

from agentic_evals.evidence.gates import load_fixture
from agentic_evals.judge.provenance import oracle_sha256, source_sha256


def admitted(case: dict[str, Any], **override: str) -> dict[str, str]:
    return {
        "case": case["name"],
        "test_source_sha256": source_sha256(case),
        "oracle_sha256": oracle_sha256(case),
        **override,
    }


def run_admitted(tmp_path: Path, case: dict[str, Any], admission: list[dict[str, str]]) -> Any:
    doc = document([claim(required=("deterministic",), admitted_evidence=admission)], [case])
    return claim_of(run_doc(tmp_path, doc))


def test_admitted_evidence_fills_the_slot(tmp_path: Path) -> None:
    case = det_case()
    judged = run_admitted(tmp_path, case, [admitted(case)])
    assert (judged.verdict, judged.requires_requalification) == ("PROVEN", [])


def test_hashes_may_carry_the_sha256_prefix_and_upper_case(tmp_path: Path) -> None:
    case = det_case()
    entry = admitted(case)
    entry["oracle_sha256"] = "sha256:" + entry["oracle_sha256"].upper()
    assert run_admitted(tmp_path, case, [entry]).verdict == "PROVEN"


def test_editing_the_expectation_to_match_broken_output_needs_requalification(
    tmp_path: Path,
) -> None:
    original = det_case()
    # The program now exits 4 and someone "fixes" the oracle to expect it: it passes again.
    edited = {**original, "command": ["bash", "-c", "exit 4"], "expected": {"exit_code": 4}}
    judged = run_admitted(tmp_path, edited, [admitted(original)])
    assert [(r.case, r.reasons) for r in judged.requires_requalification] == [
        ("det", ["TEST_SOURCE_CHANGED", "ORACLE_CHANGED"])
    ]
    assert judged.per_class == {"deterministic": "MISSING"}
    assert judged.verdict == "NOT_ESTABLISHED"


@pytest.mark.parametrize(
    ("edit", "reasons"),
    [
        ({"expected": {"exit_code": 3, "stdout_excludes": ["x"]}}, ["ORACLE_CHANGED"]),
        ({"command": ["bash", "-c", "exit 3 "]}, ["TEST_SOURCE_CHANGED"]),
        ({"seams": []}, ["TEST_SOURCE_CHANGED"]),
    ],
)
def test_any_change_to_test_or_oracle_is_seen(
    tmp_path: Path, edit: dict[str, Any], reasons: list[str]
) -> None:
    original = det_case()
    judged = run_admitted(tmp_path, {**original, **edit}, [admitted(original)])
    assert [r.reasons for r in judged.requires_requalification] == [reasons]
    assert judged.verdict != "PROVEN"


def test_only_pinned_hashes_are_compared(tmp_path: Path) -> None:
    original = det_case()
    entry = {"case": "det", "test_source_sha256": source_sha256(original)}
    edited = {**original, "expected": {"exit_code": 3, "stderr_contains": ["refused"]}}
    assert run_admitted(tmp_path, edited, [entry]).verdict == "PROVEN"


def test_once_a_claim_admits_evidence_other_cases_are_not_admitted(tmp_path: Path) -> None:
    admitted_case, newcomer = det_case("admitted"), live_case("newcomer")
    doc = document(
        [
            claim(
                required=("deterministic", "live_e2e"), admitted_evidence=[admitted(admitted_case)]
            )
        ],
        [admitted_case, newcomer],
    )
    judged = claim_of(run_doc(tmp_path, doc))
    assert [(r.case, r.reasons) for r in judged.requires_requalification] == [
        ("newcomer", ["NOT_ADMITTED"])
    ]
    assert judged.per_class == {"deterministic": "PROVEN", "live_e2e": "MISSING"}


def test_admission_is_per_claim(tmp_path: Path) -> None:
    case = det_case(claims=("pinned", "free"))
    doc = document(
        [
            claim(
                "pinned",
                ("deterministic",),
                admitted_evidence=[admitted(case, oracle_sha256="0" * 64)],
            ),
            claim("free", ("deterministic",)),
        ],
        [case],
    )
    report = run_doc(tmp_path, doc)
    assert claim_of(report, "pinned").verdict == "NOT_ESTABLISHED"
    assert claim_of(report, "free").verdict == "PROVEN"


@pytest.mark.parametrize(
    ("entry", "finding"),
    [
        (
            {"case": "ghost", "oracle_sha256": "0" * 64},
            ("AE-SCHEMA-REFERENCE", "/admitted_evidence/0/case", "error"),
        ),
        ({"case": "det"}, ("AE-CLAIM-ADMISSION", "/admitted_evidence/0", "error")),
        (
            {"case": "det", "oracle_sha256": "abc"},
            ("AE-CLAIM-ADMISSION", "/admitted_evidence/0/oracle_sha256", "error"),
        ),
        (
            {"case": "other", "oracle_sha256": "0" * 64},
            ("AE-CLAIM-ADMISSION", "/admitted_evidence/0/case", "warning"),
        ),
    ],
)
def test_admitted_evidence_load_rules(
    tmp_path: Path, entry: dict[str, str], finding: tuple[str, str, str]
) -> None:
    doc = document(
        [claim(required=("deterministic",), admitted_evidence=[entry])],
        [det_case(), det_case("other", claims=())],
    )
    loaded = load_fixture(write(tmp_path, doc))
    code, pointer, severity = finding
    found = {(f.code, f.pointer, f.severity) for f in loaded.findings}
    assert (code, "/capability_claims/0" + pointer, severity) in found
    assert loaded.ok is (severity == "warning")
