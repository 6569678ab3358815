"""Per-class and per-claim verdicts, the multi-claim rule, and the run's gate (SPEC 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import RECEIPT, case_report
from claims_helpers import (
    claim,
    claim_of,
    cli_run,
    det_case,
    document,
    live_case,
    run_doc,
    write,
)

from agentic_evals.judge.claims import (
    claim_verdict,
    claims_readiness,
    class_verdict,
)
from agentic_evals.reports.model import CaseReport, ClaimEvidence, ClaimReadiness, ClassVerdict


def entry(name: str, cls: str = "live_e2e", ineligible: tuple[str, ...] = ()) -> ClaimEvidence:
    return ClaimEvidence(
        case=name,
        type="positive",
        declared_evidence_class=cls,
        effective_evidence_class=cls,
        live_qualified=cls == "live_e2e",
        representation=None,
        ineligible=list(ineligible),
        threat=None,
    )


PASS, FAIL = case_report("a", "PASS"), case_report("a", "FAIL", passed=1)
BLOCKED, FLAKY = case_report("a", "BLOCKED"), case_report("a", "PASS", passed=1)
UNTESTED = case_report("a", "NOT_TESTED", total=0)


@pytest.mark.parametrize(
    ("statuses", "exempt", "verdict"),
    [
        ({"a": PASS}, False, "PROVEN"),
        ({"a": PASS, "b": FAIL}, False, "FAILED"),
        ({"a": BLOCKED}, False, "BLOCKED"),
        ({"a": FLAKY}, False, "BLOCKED"),  # passing around infra-blocked trials is no proof
        ({"a": BLOCKED, "b": PASS}, False, "PROVEN"),
        ({"a": UNTESTED}, False, "MISSING"),
        ({}, False, "MISSING"),
        ({}, True, "EXEMPT"),
        ({"a": PASS}, True, "PROVEN"),
    ],
)
def test_class_verdict(statuses: dict[str, CaseReport], exempt: bool, verdict: str) -> None:
    evidence = [entry(name) for name in statuses]
    assert class_verdict("live_e2e", evidence, statuses, exempt=exempt)[0] == verdict


def test_only_eligible_cases_of_that_effective_class_count() -> None:
    evidence = [entry("det", "deterministic"), entry("stale", ineligible=("ORACLE_CHANGED",))]
    statuses = {"det": PASS, "stale": PASS}
    assert class_verdict("live_e2e", evidence, statuses, exempt=False) == ("MISSING", [])


@pytest.mark.parametrize(
    ("per_class", "missing_reps", "verdict"),
    [
        ({"a": "PROVEN", "b": "PROVEN"}, False, "PROVEN"),
        ({"a": "PROVEN", "b": "PROVEN"}, True, "PARTIALLY_PROVEN"),
        ({"a": "PROVEN", "b": "FAILED"}, False, "FAILED"),
        ({"a": "BLOCKED", "b": "FAILED"}, False, "FAILED"),
        ({"a": "BLOCKED"}, False, "BLOCKED_EXTERNAL"),
        ({"a": "PROVEN", "b": "BLOCKED"}, False, "BLOCKED_EXTERNAL"),
        ({"a": "PROVEN", "b": "MISSING"}, False, "PARTIALLY_PROVEN"),
        ({"a": "PROVEN", "b": "EXEMPT"}, False, "PARTIALLY_PROVEN"),
        ({"a": "EXEMPT"}, False, "NOT_ESTABLISHED"),
        ({"a": "MISSING", "b": "MISSING"}, False, "NOT_ESTABLISHED"),
    ],
)
def test_claim_verdict(
    per_class: dict[str, ClassVerdict], missing_reps: bool, verdict: str
) -> None:
    assert claim_verdict(per_class, representations_missing=missing_reps) == verdict


def judged(verdict: str, criticality: str = "critical") -> ClaimReadiness:
    fields: dict[str, Any] = {"verdict": verdict, "criticality": criticality}
    return ClaimReadiness.model_construct(**fields)


@pytest.mark.parametrize(
    ("claims", "readiness"),
    [
        ([judged("PROVEN"), judged("FAILED", "important")], "READY"),
        ([judged("PROVEN"), judged("PARTIALLY_PROVEN")], "USABLE_WITH_GAPS"),
        ([judged("PROVEN"), judged("FAILED")], "NOT_READY"),
        ([judged("BLOCKED_EXTERNAL")], "USABLE_WITH_GAPS"),
        ([judged("PROVEN", "important"), judged("PROVEN", "optional")], "READY"),
        (
            [judged("PROVEN", "important"), judged("NOT_ESTABLISHED", "optional")],
            "USABLE_WITH_GAPS",
        ),
        ([judged("FAILED", "important")], "USABLE_WITH_GAPS"),
    ],
)
def test_claim_readiness(claims: list[ClaimReadiness], readiness: str) -> None:
    assert claims_readiness(claims) == readiness


def test_a_failing_live_case_fails_a_critical_claim_and_the_run(tmp_path: Path) -> None:
    failing = live_case(expected={"exit_code": 0, "artifacts": [{**RECEIPT, "equals": "gone"}]})
    report = run_doc(tmp_path, document([claim()], [failing]))
    assert claim_of(report).verdict == "FAILED"
    assert report.capability_readiness is not None
    assert report.capability_readiness.aggregate_readiness == "NOT_READY"
    assert report.readiness == "NOT_READY"


def test_the_gate_is_the_worse_of_case_and_claim_readiness(tmp_path: Path) -> None:
    doc = document([claim(required=("live_e2e", "deterministic"))], [det_case()])
    result, report = cli_run(write(tmp_path, doc))
    assert (report["case_readiness"], report["readiness"]) == ("READY", "USABLE_WITH_GAPS")
    assert result.exit_code == 1
    result, report = cli_run(write(tmp_path, doc), "--report-only")
    assert result.exit_code == 0


def test_without_claims_capability_readiness_is_null_and_the_gate_is_case_readiness(
    tmp_path: Path,
) -> None:
    doc = document([], [{**det_case(), "supports_claims": []}])
    report = run_doc(tmp_path, doc)
    assert (report.capability_readiness, report.readiness) == (None, "READY")


def test_a_live_case_supporting_two_claims_counts_for_neither(tmp_path: Path) -> None:
    doc = document([claim("c1"), claim("c2")], [live_case(claims=("c1", "c2"))])
    report = run_doc(tmp_path, doc)
    for claim_id in ("c1", "c2"):
        judged_claim = claim_of(report, claim_id)
        assert judged_claim.shared_live_cases == ["live"]
        assert judged_claim.per_class == {"live_e2e": "MISSING"}
        assert judged_claim.verdict == "NOT_ESTABLISHED"
    assert report.readiness != "READY"


def per_claim(path: str) -> dict[str, object]:
    return {"path": path, "exists": True}


@pytest.mark.parametrize(
    ("artifacts", "proven"),
    [
        ([per_claim("receipt.json"), per_claim("c1.json"), per_claim("out/c2/r.json")], True),
        ([per_claim("c1.json")], False),  # nothing of c2's own
        ([per_claim("c1-c2.json"), per_claim("out/c1/c2.json")], False),  # one file, two claims
        ([per_claim("out/c1/c2.json")], False),  # it exists, but names both: it counts for neither
        (
            [per_claim("c1.json"), {"path": "c2.json", "absent": True}],
            False,
        ),  # absence is no artifact
    ],
)
def test_per_claim_artifacts_make_a_shared_live_case_count(
    tmp_path: Path, artifacts: list[dict[str, object]], proven: bool
) -> None:
    made = "c1.json c1-c2.json out/c2/r.json out/c1/c2.json"
    script = f"bash prod.sh && mkdir -p out/c1 out/c2 && touch {made}"
    command = ["bash", "-c", script]
    case = live_case(
        claims=("c1", "c2"), command=command, expected={"exit_code": 0, "artifacts": artifacts}
    )
    doc = document([claim("c1"), claim("c2")], [case])
    report = run_doc(tmp_path, doc)
    verdicts = {claim_of(report, c).verdict for c in ("c1", "c2")}
    assert report.cases[0].outcome == "PASS"  # the verdicts turn on the artifacts' names alone
    if proven:
        assert verdicts == {"PROVEN"} and report.readiness == "READY"
    else:
        assert "PROVEN" not in verdicts


def test_a_downgraded_case_may_support_several_claims(tmp_path: Path) -> None:
    doc = document(
        [claim("c1", ("deterministic",)), claim("c2", ("deterministic",))],
        [det_case(claims=("c1", "c2"))],
    )
    report = run_doc(tmp_path, doc)
    assert [claim_of(report, c).verdict for c in ("c1", "c2")] == ["PROVEN", "PROVEN"]


def test_a_case_opted_out_of_readiness_proves_nothing(tmp_path: Path) -> None:
    report = run_doc(tmp_path, document([claim()], [live_case(required=False)]))
    judged_claim = claim_of(report)
    assert judged_claim.evidence[0].ineligible == ["NOT_REQUIRED_CASE"]
    assert judged_claim.verdict == "NOT_ESTABLISHED"


def test_downgraded_live_cases_fill_their_effective_class(tmp_path: Path) -> None:
    pseudo = live_case(type="negative", expected={"exit_code": 0, "stdout_contains": ["settled"]})
    doc = document([claim(required=("fault_injected_deterministic",))], [pseudo])
    judged_claim = claim_of(run_doc(tmp_path, doc))
    assert judged_claim.per_class == {"fault_injected_deterministic": "PROVEN"}
    assert judged_claim.unqualified_live_cases == ["live"]
