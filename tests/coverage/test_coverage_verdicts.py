"""Verdicts, criticality tiers, value-representation seams and the order of gaps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builders import PROD, make_skill
from coverage_helpers import bare_case, case, fixture, seam

from agentic_evals.coverage.models import CoverageReport
from agentic_evals.coverage.show import show_coverage


def show(tmp_path: Path, document: dict[str, Any]) -> CoverageReport:
    return show_coverage(make_skill(tmp_path / "demo", files=PROD, fixture=document))


def value_claim(claim_id: str = "v", *required: str) -> dict[str, Any]:
    return {
        "id": claim_id,
        "criticality": "critical",
        "claim_semantics": "value_bearing",
        "domain_profile": "json-scalar-v1",
        "evidence_required": list(required or ("deterministic",)),
    }


def test_ready_when_every_critical_seam_is_covered(tmp_path: Path) -> None:
    seams = [seam("a"), seam("b"), seam("minor", criticality="important")]
    report = show(tmp_path, fixture([case("c", "a", "b")], seams))
    assert report.summary.verdict == "READY"
    # An uncovered important seam is a gap, but not one that blocks READY.
    assert [(g.seam_id, g.effective_criticality) for g in report.prioritized_gaps] == [
        ("minor", "important")
    ]
    assert (report.summary.critical_seams, report.summary.critical_covered) == (2, 2)


def test_not_ready_when_a_critical_seam_is_uncovered(tmp_path: Path) -> None:
    report = show(tmp_path, fixture([case("c", "a")], [seam("a"), seam("b")]))
    assert report.summary.verdict == "NOT_READY"
    assert report.summary.critical_gaps == 1


def test_no_critical_seams_declared(tmp_path: Path) -> None:
    seams = [seam("minor", criticality="important"), seam("nice", criticality="optional")]
    report = show(tmp_path, fixture([case("c")], seams))
    assert report.summary.verdict == "NO_CRITICAL_SEAMS_DECLARED"
    assert len(report.prioritized_gaps) == 2
    bare = show(tmp_path / "other", fixture([case("c")]))
    assert bare.summary.verdict == "NO_CRITICAL_SEAMS_DECLARED" and bare.seams == []


def test_an_absent_criticality_is_critical(tmp_path: Path) -> None:
    unmarked = seam("s")
    del unmarked["criticality"]
    report = show(tmp_path, fixture([case("c")], [unmarked]))
    assert report.seams[0].criticality == "critical"
    assert report.summary.verdict == "NOT_READY"


def test_high_counts_as_critical_and_is_reported(tmp_path: Path) -> None:
    report = show(tmp_path, fixture([bare_case("c", "s")], [seam("s", criticality="high")]))
    entry = report.seams[0]
    assert (entry.criticality, entry.effective_criticality) == ("high", "critical")
    assert report.summary.verdict == "NOT_READY"
    (note,) = [f for f in report.findings if f.code == "AE-COV-CRITICALITY"]
    assert "treats it as critical" in note.message and note.pointer == "/seams/0/criticality"


def test_other_criticality_words_map_to_tiers(tmp_path: Path) -> None:
    seams = [
        seam("m", criticality="medium"),
        seam("l", criticality="Low"),
        seam("x", criticality="whatever"),
    ]
    report = show(tmp_path, fixture([case("c", "m", "l", "x")], seams))
    assert [s.effective_criticality for s in report.seams] == ["important", "optional", "critical"]


def test_a_value_bearing_claim_without_a_value_seam_is_a_critical_gap(tmp_path: Path) -> None:
    document = fixture([case("c", "a")], [seam("a")], capability_claims=[value_claim("v")])
    report = show(tmp_path, document)
    assert report.summary.verdict == "NOT_READY"
    (gap,) = report.prioritized_gaps
    assert (gap.kind, gap.claim_id, gap.seam_id) == ("missing_value_representation_seam", "v", None)
    assert gap.effective_criticality == "critical" and gap.missing_evidence == ["deterministic"]
    (error,) = [f for f in report.findings if f.code == "AE-COV-VALUE-SEAM"]
    assert error.severity == "error"


def test_a_critical_value_seam_for_the_claim_closes_the_gap(tmp_path: Path) -> None:
    seams = [seam("vr", seam_type="value-representation", claim_id="v")]
    document = fixture([case("c", "vr")], seams, capability_claims=[value_claim("v")])
    report = show(tmp_path, document)
    assert report.prioritized_gaps == [] and report.summary.verdict == "READY"


def test_a_value_seam_must_be_declared_critical_not_high_nor_for_another_claim(
    tmp_path: Path,
) -> None:
    for index, extra in enumerate(({"criticality": "high"}, {"claim_id": "other"})):
        seams = [seam("vr", seam_type="value-representation", **extra)]
        document = fixture([case("c", "vr")], seams, capability_claims=[value_claim("v")])
        report = show(tmp_path / str(index), document)
        assert [g.kind for g in report.prioritized_gaps] == ["missing_value_representation_seam"]


def test_a_seam_named_value_representation_of_another_type_does_not_count(
    tmp_path: Path,
) -> None:
    seams = [seam("value-representation", seam_type="typed-boundary")]
    document = fixture(
        [case("c", "value-representation")], seams, capability_claims=[value_claim()]
    )
    report = show(tmp_path, document)
    assert [g.kind for g in report.prioritized_gaps] == ["missing_value_representation_seam"]


def test_gaps_are_prioritized_critical_first_then_most_missing(tmp_path: Path) -> None:
    seams = [
        seam("imp-3", "deterministic", "live_e2e", "human_evaluation", criticality="important"),
        seam("crit-1", "deterministic"),
        seam("crit-2", "deterministic", "live_e2e"),
        seam("opt-2", "deterministic", "live_e2e", criticality="optional"),
        seam("crit-1-b", "live_e2e"),
    ]
    claims = [value_claim("v", "deterministic")]
    document = fixture([case("c")], seams, capability_claims=claims)
    report = show(tmp_path, document)
    order = [(g.rank, g.seam_id or g.claim_id) for g in report.prioritized_gaps]
    assert order == [
        (1, "crit-2"),
        # Same tier and missing count: an undeclared seam before declared ones, then by id.
        (2, "v"),
        (3, "crit-1"),
        (4, "crit-1-b"),
        (5, "imp-3"),
        (6, "opt-2"),
    ]
