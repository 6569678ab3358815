"""Exemptions: compared as dates, ignored when incomplete or expired, never a proof (SPEC 4)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from claims_helpers import claim, claim_of, det_case, document, run_doc, write

from agentic_evals import clock
from agentic_evals.evidence.gates import load_fixture

NOON = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """It is 2026-06-01 12:00 UTC (``clock.today`` reads ``clock.utc_now``)."""
    monkeypatch.setattr(clock, "utc_now", lambda: NOON)


def exemption(**fields: Any) -> dict[str, Any]:
    return {
        "evidence_class": "live_e2e",
        "reason_code": "unsafe_to_automate",
        "justification": "irreversible external effects",
        "owner": "owner@example.com",
        "expires": "2099-12-31",
        **fields,
    }


def run_with(tmp_path: Path, *exemptions: dict[str, Any]) -> Any:
    doc = document(
        [claim(required=("deterministic", "live_e2e"), exemptions=list(exemptions))],
        [det_case()],
    )
    return claim_of(run_doc(tmp_path, doc))


@pytest.mark.parametrize(
    ("expires", "applies"),
    [
        ("2026-06-01", True),  # a date-only expiry lasts through that day
        ("2026-06-02", True),
        ("2026-05-31", False),
        ("2026-06-01T11:59:59Z", False),
        ("2026-06-01T12:00:00Z", False),  # an instant lapses at that very instant
        ("2026-06-01T12:00:00", False),
        ("2026-06-01T12:00:01+00:00", True),
        ("2026-06-01T13:00:00+02:00", False),  # 11:00 UTC: later as a string, earlier in time
        ("2026-06-01T11:00:00-02:00", True),  # 13:00 UTC
        ("2026-06-01T12:30:00", True),  # naive: read as UTC
    ],
)
def test_expiry_is_compared_as_a_date_or_an_instant(
    tmp_path: Path, expires: str, applies: bool
) -> None:
    judged = run_with(tmp_path, exemption(expires=expires))
    assert (judged.per_class["live_e2e"] == "EXEMPT") is applies
    assert bool(judged.exempt_evidence) is applies
    if not applies:
        assert [e.reason for e in judged.ignored_exemptions] == ["EXPIRED"]


def test_a_clock_in_another_day_moves_the_date_only_expiry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clock, "utc_now", lambda: NOON + dt.timedelta(days=1))
    judged = run_with(tmp_path, exemption(expires="2026-06-01"))
    assert [e.reason for e in judged.ignored_exemptions] == ["EXPIRED"]


@pytest.mark.parametrize(
    ("fields", "reason", "missing"),
    [
        ({"owner": None}, "INCOMPLETE", ["owner"]),
        ({"justification": "  ", "expires": None}, "INCOMPLETE", ["justification", "expires"]),
        (
            {"reason_code": None, "evidence_class": None},
            "INCOMPLETE",
            ["evidence_class", "reason_code"],
        ),
        ({"expires": "end of the quarter"}, "INVALID_EXPIRES", []),
        ({"evidence_class": "human_evaluation"}, "CLASS_NOT_REQUIRED", []),
    ],
)
def test_incomplete_or_inapplicable_exemptions_are_ignored_and_listed(
    tmp_path: Path, fields: dict[str, Any], reason: str, missing: list[str]
) -> None:
    given = {k: v for k, v in exemption(**fields).items() if v is not None}
    judged = run_with(tmp_path, exemption(), given)
    assert [e.evidence_class for e in judged.exempt_evidence] == ["live_e2e"]
    (ignored,) = judged.ignored_exemptions
    assert (ignored.index, ignored.reason, ignored.missing_fields) == (1, reason, missing)


def test_an_incomplete_exemption_is_a_load_warning_not_an_error(tmp_path: Path) -> None:
    incomplete = {"evidence_class": "live_e2e", "expires": "2099-01-01"}
    doc = document([claim(exemptions=[incomplete])], [det_case()])
    loaded = load_fixture(write(tmp_path, doc))
    assert loaded.ok
    assert [(f.code, f.severity, f.pointer) for f in loaded.findings] == [
        ("AE-CLAIM-EXEMPTION", "warning", "/capability_claims/0/exemptions/0")
    ]
    assert "reason_code, justification, owner" in loaded.findings[0].message


def test_a_valid_exemption_never_makes_a_claim_proven(tmp_path: Path) -> None:
    doc = document([claim(exemptions=[exemption()])], [det_case(claims=())])
    report = run_doc(tmp_path, doc)
    judged = claim_of(report)
    assert judged.per_class == {"live_e2e": "EXEMPT"}
    assert judged.verdict == "NOT_ESTABLISHED"
    assert judged.missing_evidence == []
    assert report.readiness == "USABLE_WITH_GAPS"
