"""Qualification tiers, --tier, --require-system-test and threats per claim (SPEC 6)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from claims_helpers import claim, claim_of, cli_run, det_case, document, run_doc, write

from agentic_evals.contract.models import Case
from agentic_evals.contract.vocabulary import QUALIFICATION_TIERS as TIERS
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.judge.tiers import reached_tier


def tiered(name: str, up_to: str | None, passes: bool = True, **fields: Any) -> dict[str, Any]:
    case = det_case(name, (), passes=passes, **fields)
    if up_to is not None:
        case["qualification"] = {"required_up_to": up_to, "required_for": ["release"]}
    return case


CASES = [
    tiered("system", "system_test"),
    tiered("integration", "full_integration"),
    tiered("simulated", "simulated"),
    tiered("plain", None),
    tiered("broken", "unit", passes=False),
]


def test_tiers_are_ordered() -> None:
    assert TIERS == ("system_test", "full_integration", "simulated", "unit", "not_required")


@pytest.mark.parametrize(
    ("run_tier", "required", "reached"),
    [
        ("unit", "system_test", "unit"),
        ("system_test", "simulated", "simulated"),
        ("full_integration", "full_integration", "full_integration"),
        ("system_test", "not_required", "not_required"),
        ("not_required", "system_test", "not_required"),
    ],
)
def test_a_passing_case_reaches_the_lower_of_the_two_tiers(
    run_tier: Any, required: str, reached: str
) -> None:
    case = Case.model_validate(tiered("c", required))
    assert reached_tier(case, run_tier) == reached


def test_the_report_groups_cases_by_the_highest_tier_they_passed_at(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(write(tmp_path, document([], CASES)), "--tier", "full_integration")
    assert_valid_report(report)
    block = report["qualification"]
    assert (block["run_tier"], block["require_system_test"]) == ("full_integration", False)
    assert block["passed_at"] == {
        "system_test": [],
        "full_integration": ["system", "integration"],
        "simulated": ["simulated"],
        "unit": [],
        "not_required": ["plain"],
    }
    assert block["not_passed"] == ["broken"]
    assert block["missing_system_test"] == ["system"]
    assert result.exit_code == 1  # "broken" fails


def test_the_default_tier_is_unit(tmp_path: Path) -> None:
    report = run_doc(tmp_path, document([], CASES[:1]))
    assert report.qualification is not None
    assert report.qualification.run_tier == "unit"
    assert report.qualification.passed_at["unit"] == ["system"]


def test_require_system_test_blocks_a_case_that_passed_lower(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    fixture = write(
        tmp_path, document([], [tiered("system", "system_test"), tiered("plain", None)])
    )
    result, report = cli_run(fixture)
    assert (result.exit_code, report["readiness"]) == (0, "READY")  # without the flag
    result, report = cli_run(fixture, "--require-system-test")
    assert_valid_report(report)
    case = report["cases"][0]
    assert case["outcome"] == "BLOCKED"
    assert [p["code"] for p in case["problems"]] == ["MISSING_SYSTEM_TEST"]
    assert case["passed_trials"] == case["total_trials"] == 2
    assert report["cases"][1]["outcome"] == "PASS"
    assert report["readiness"] == "USABLE_WITH_GAPS"
    assert result.exit_code == 1
    assert report["qualification"]["passed_at"]["unit"] == ["system"]
    result, report = cli_run(fixture, "--require-system-test", "--tier", "system_test")
    assert (result.exit_code, report["readiness"]) == (0, "READY")
    assert report["qualification"]["passed_at"]["system_test"] == ["system"]


def test_require_system_test_spares_optional_cases_and_keeps_failures(tmp_path: Path) -> None:
    cases = [
        tiered("optional", "system_test", required=False),
        tiered("failing", "system_test", passes=False),
    ]
    report = run_doc(tmp_path, document([], cases), require_system_test=True)
    assert [(c.outcome, [p.code for p in c.problems]) for c in report.cases] == [
        ("PASS", []),
        ("FAIL", ["EXIT_CODE", "MISSING_SYSTEM_TEST"]),
    ]


def test_a_blocked_system_test_case_cannot_prove_a_claim(tmp_path: Path) -> None:
    case = {**tiered("system", "system_test"), "supports_claims": ["c"]}
    doc = document([claim(required=("deterministic",))], [case])
    assert claim_of(run_doc(tmp_path, doc)).verdict == "PROVEN"
    judged = claim_of(run_doc(tmp_path, doc, require_system_test=True))
    assert (judged.per_class, judged.verdict) == ({"deterministic": "BLOCKED"}, "BLOCKED_EXTERNAL")


THREAT = {
    "model": "a caller crafts a value in another representation",
    "subverted_by": ["scientific notation", "quoted numbers"],
    "adversarial_goal": "make two equal values compare unequal",
}


def test_threats_are_reported_per_claim(tmp_path: Path) -> None:
    cases = [
        det_case("attack", ("c",), type="adversarial", threat_assumption=THREAT),
        det_case("plain", ("c", "d")),
    ]
    doc = document([claim(required=("deterministic",)), claim("d", ("deterministic",))], cases)
    report = run_doc(tmp_path, doc)
    (threat,) = claim_of(report).threats
    assert threat.model_dump() == {"case": "attack", **THREAT}
    assert claim_of(report, "d").threats == []


@pytest.mark.parametrize(
    ("case_type", "threat", "finding"),
    [
        ("negative", THREAT, ("AE-SCHEMA-VALUE", "/cases/0/threat_assumption")),
        (
            "adversarial",
            {**THREAT, "subverted_by": []},
            ("AE-SCHEMA-VALUE", "/cases/0/threat_assumption/subverted_by"),
        ),
        (
            "adversarial",
            {"model": "m", "subverted_by": ["x"]},
            ("AE-SCHEMA-REQUIRED", "/cases/0/threat_assumption"),
        ),
    ],
)
def test_threat_assumptions_are_validated(
    tmp_path: Path, case_type: str, threat: dict[str, Any], finding: tuple[str, str]
) -> None:
    case = det_case(type=case_type, threat_assumption=threat)
    loaded = load_fixture(write(tmp_path, document([claim(required=("deterministic",))], [case])))
    assert not loaded.ok
    assert finding in {(f.code, f.pointer) for f in loaded.errors}
