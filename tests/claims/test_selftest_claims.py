"""The five selftest fixtures of the original tool behave as their proof_scope says.

Copies live in ``selftest/`` with ``claim_semantics`` added where it was missing
(the one field the stricter loader requires); each runs through the real CLI in
a skill tree whose ``prod.sh`` writes ``receipt.json``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from claims_helpers import SELFTEST, cli_run, copy_selftest

from agentic_evals import clock

ORIGINALS = Path(__file__).resolve().parents[3] / "shared/corpus/agent-skills/agentic-evals"


@pytest.fixture(autouse=True)
def _frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "utc_now", lambda: dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC))


def claims(report: dict[str, Any]) -> dict[str, Any]:
    return {c["id"]: c for c in report["capability_readiness"]["claims"]}


@pytest.mark.skipif(not ORIGINALS.is_dir(), reason="compatibility corpus not found")
@pytest.mark.parametrize("name", sorted(p.name for p in SELFTEST.glob("*.json")))
def test_copies_differ_from_the_originals_only_by_claim_semantics(name: str) -> None:
    original = json.loads((ORIGINALS / "fixtures/selftest" / name).read_text())
    copy = json.loads((SELFTEST / name).read_text())
    for claim in copy["capability_claims"]:
        claim.pop("claim_semantics")
    for claim in original["capability_claims"]:
        claim.pop("claim_semantics", None)
    assert copy == original


def test_deterministic_only_leaves_the_live_slot_missing(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(copy_selftest("det_only_missing_live.json", tmp_path))
    assert_valid_report(report)
    claim = claims(report)["demo.core"]
    # Its deterministic cases run `true` and `false` and check only the exit code: every
    # check passes on the null trial, so they fill no slot either.
    assert claim["per_class"] == {"deterministic": "MISSING", "live_e2e": "MISSING"}
    assert [e["ineligible"] for e in claim["evidence"]] == [["NO_FAILING_ORACLE"]] * 2
    assert claim["verdict"] == "NOT_ESTABLISHED"
    assert report["case_readiness"] == "READY"  # every case passed ...
    assert report["readiness"] == "USABLE_WITH_GAPS"  # ... and still not READY
    assert result.exit_code == 1


def test_pseudo_live_is_downgraded_and_proves_nothing(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(copy_selftest("pseudo_live.json", tmp_path))
    assert_valid_report(report)
    (case,) = report["cases"]
    assert case["outcome"] == "PASS"
    assert (case["declared_evidence_class"], case["effective_evidence_class"]) == (
        "live_e2e",
        "deterministic",
    )
    assert case["live_qualified"] is False
    assert case["evidence_disqualifiers"] == ["LIVE_NO_READBACK"]
    claim = claims(report)["demo.pseudo"]
    assert claim["verdict"] == "NOT_ESTABLISHED"
    assert claim["unqualified_live_cases"] == ["pseudo-live-no-readback"]
    assert report["readiness"] != "READY" and result.exit_code == 1


def test_a_valid_exemption_is_surfaced_never_proven_and_an_expired_one_ignored(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(copy_selftest("exemption.json", tmp_path))
    assert_valid_report(report)
    valid, expired = claims(report)["demo.exempt.valid"], claims(report)["demo.exempt.expired"]
    assert [e["evidence_class"] for e in valid["exempt_evidence"]] == ["live_e2e"]
    assert valid["exempt_evidence"][0]["owner"] == "graham@grahama.co"
    # `true` with exit code 0 proves nothing: the deterministic slot stays missing.
    assert valid["per_class"] == {"deterministic": "MISSING", "live_e2e": "EXEMPT"}
    assert valid["verdict"] == "NOT_ESTABLISHED"
    assert expired["exempt_evidence"] == []
    assert [(e["index"], e["reason"]) for e in expired["ignored_exemptions"]] == [(0, "EXPIRED")]
    assert expired["per_class"]["live_e2e"] == "MISSING"
    assert report["readiness"] != "READY" and result.exit_code == 1


def test_a_live_slot_met_only_by_a_blocked_case_is_blocked_external(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(copy_selftest("blocked_live.json", tmp_path))
    assert_valid_report(report)
    (case,) = report["cases"]
    assert (case["outcome"], case["live_qualified"]) == ("BLOCKED", True)
    claim = claims(report)["demo.blocked"]
    assert claim["per_class"] == {"live_e2e": "BLOCKED"}
    assert claim["verdict"] == "BLOCKED_EXTERNAL"
    assert report["readiness"] != "READY" and result.exit_code == 1


def test_a_qualifying_live_case_with_readback_proves_its_slot_and_hollow_ones_do_not(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    result, report = cli_run(copy_selftest("live_proven.json", tmp_path))
    assert_valid_report(report)
    live = report["cases"][2]
    assert (live["effective_evidence_class"], live["live_qualified"]) == ("live_e2e", True)
    claim = claims(report)["demo.core"]
    # The deterministic cases (`true` and `false`, exit codes only) pass on the null trial.
    assert claim["per_class"] == {"deterministic": "MISSING", "live_e2e": "PROVEN"}
    assert claim["verdict"] == "PARTIALLY_PROVEN"
    assert [c["weak"] for c in report["cases"]] == [True, True, False]
    assert report["readiness"] == "USABLE_WITH_GAPS"
    assert result.exit_code == 1, result.output
