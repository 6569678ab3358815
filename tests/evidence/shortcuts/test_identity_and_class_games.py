"""Identity and class games: what a case runs, what a claim says, and what a class needs.

Each test runs a small skill through the real CLI: a script swapped under an
unchanged case, a claim lowered after admission, a class merely declared.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builders import PROD_SH, RECEIPT, case, fixture, make_skill
from click.testing import CliRunner

from agentic_evals.cli import cli

LIVE = case(
    "settles",
    command=["bash", "../prod.sh"],
    expected={"exit_code": 0, "stdout_contains": ["settled"], "artifacts": [RECEIPT]},
    real_world=True,
    evidence_class="live_e2e",
    supports_claims=["settles"],
)
REFUSES = case(
    "refuses",
    "negative",
    ["bash", "../prod.sh", "--bad"],
    {"exit_code": 0, "stdout_contains": ["settled"]},
)
CLAIM = {
    "id": "settles",
    "criticality": "critical",
    "claim_semantics": "protocol",
    "evidence_required": ["live_e2e"],
}


def run_skill(tmp_path: Path, cases: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    top.setdefault("capability_claims", [CLAIM])
    document = fixture(cases, skill="settler", **top)
    skill = tmp_path / "settler"
    if not skill.exists():
        make_skill(skill, files={"prod.sh": PROD_SH})
    (skill / "fixtures").mkdir(exist_ok=True)
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(document))
    output = tmp_path / "report.json"
    path = str(skill / "fixtures" / "agentic_eval.json")
    result = CliRunner().invoke(cli, ["run", path, "-o", str(output), "--report-only"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(output.read_text())
    return report


def by_name(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in report["cases"] if c["name"] == name)


def test_the_honest_skill_proves_its_live_claim(tmp_path: Path) -> None:
    report = run_skill(tmp_path, [LIVE, REFUSES])
    assert by_name(report, "settles")["live_qualified"] is True
    assert report["capability_readiness"]["claims"][0]["verdict"] == "PROVEN"
    assert report["readiness"] == "READY"


def test_a_script_swapped_under_an_unchanged_case_needs_readmission(tmp_path: Path) -> None:
    first = run_skill(tmp_path, [LIVE, REFUSES])
    pinned = by_name(first, "settles")["test_source_sha256"]
    claim = {**CLAIM, "admitted_evidence": [{"case": "settles", "test_source_sha256": pinned}]}
    assert run_skill(tmp_path, [LIVE, REFUSES], capability_claims=[claim])["readiness"] == "READY"
    # The same case JSON, another script behind it.
    swapped = PROD_SH.replace("echo settled", "echo settled; echo swapped")
    (tmp_path / "settler" / "prod.sh").write_text(swapped)
    report = run_skill(tmp_path, [LIVE, REFUSES], capability_claims=[claim])
    assert by_name(report, "settles")["test_source_sha256"] != pinned
    judged = report["capability_readiness"]["claims"][0]
    assert judged["requires_requalification"] == [
        {"case": "settles", "reasons": ["TEST_SOURCE_CHANGED"]}
    ]
    assert judged["verdict"] != "PROVEN" and report["readiness"] != "READY"


def test_a_claim_lowered_after_admission_needs_readmission(tmp_path: Path) -> None:
    first = run_skill(tmp_path, [LIVE, REFUSES])
    pinned = first["capability_readiness"]["claims"][0]["claim_sha256"]
    admitted = [{"case": "settles", "claim_sha256": pinned}]
    claim = {**CLAIM, "admitted_evidence": admitted}
    report = run_skill(tmp_path, [LIVE, REFUSES], capability_claims=[claim])
    assert report["capability_readiness"]["claims"][0]["requires_requalification"] == []
    for lowered in ({"criticality": "important"}, {"evidence_required": ["deterministic"]}):
        report = run_skill(tmp_path, [LIVE, REFUSES], capability_claims=[{**claim, **lowered}])
        judged = report["capability_readiness"]["claims"][0]
        assert judged["claim_sha256"] != pinned
        assert judged["requires_requalification"] == [
            {"case": "settles", "reasons": ["CLAIM_CHANGED"]}
        ]
        assert judged["verdict"] != "PROVEN"


def test_human_evaluation_needs_a_review_record_read_back(tmp_path: Path) -> None:
    claim = {**CLAIM, "evidence_required": ["human_evaluation"]}
    declared = {**LIVE, "evidence_class": "human_evaluation"}
    bare = {**declared, "expected": {"exit_code": 0, "stdout_contains": ["settled"]}}
    report = run_skill(tmp_path, [bare, REFUSES], capability_claims=[claim])
    judged = by_name(report, "settles")
    assert judged["effective_evidence_class"] == "deterministic"
    assert judged["evidence_disqualifiers"] == ["HUMAN_NO_REVIEW_RECORD"]
    assert report["capability_readiness"]["claims"][0]["verdict"] != "PROVEN"
    report = run_skill(tmp_path, [declared, REFUSES], capability_claims=[claim])
    assert by_name(report, "settles")["effective_evidence_class"] == "human_evaluation"
    assert report["capability_readiness"]["claims"][0]["verdict"] == "PROVEN"


def test_adversarial_live_e2e_filled_by_a_positive_case_is_downgraded(tmp_path: Path) -> None:
    claim = {**CLAIM, "evidence_required": ["adversarial_live_e2e"]}
    positive = {**LIVE, "evidence_class": "adversarial_live_e2e"}
    report = run_skill(tmp_path, [positive, REFUSES], capability_claims=[claim])
    judged = by_name(report, "settles")
    assert judged["evidence_disqualifiers"] == ["LIVE_NOT_ADVERSARIAL"]
    assert judged["effective_evidence_class"] == "deterministic"
    assert report["capability_readiness"]["claims"][0]["verdict"] != "PROVEN"
    attack = {**positive, "type": "adversarial"}
    report = run_skill(tmp_path, [attack, REFUSES], capability_claims=[claim])
    assert by_name(report, "settles")["live_qualified"] is True


def test_a_fixture_declaring_mocked_or_not_live_has_no_live_case(tmp_path: Path) -> None:
    for flags, said in (({"mocked": True}, "mocked"), ({"live": False}, "live")):
        report = run_skill(tmp_path, [LIVE, REFUSES], **flags)
        judged = by_name(report, "settles")
        assert judged["evidence_disqualifiers"] == ["LIVE_FIXTURE_MOCKED"], said
        assert judged["live_qualified"] is False
        assert report["capability_readiness"]["claims"][0]["verdict"] != "PROVEN"
        assert report["readiness"] != "READY"
