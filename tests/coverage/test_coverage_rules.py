"""Coverage rules, one by one, on small skill folders (SPEC 7)."""

from __future__ import annotations

from pathlib import Path

from builders import PROD, make_skill
from coverage_helpers import bare_case, case, fixture, live_case, seam

from agentic_evals.coverage.models import CoverageReport, SeamCoverage
from agentic_evals.coverage.show import show_coverage


def show(tmp_path: Path, document: dict[str, object]) -> CoverageReport:
    return show_coverage(make_skill(tmp_path / "demo", files=PROD, fixture=document))


def only_seam(report: CoverageReport) -> SeamCoverage:
    (single,) = report.seams
    return single


def codes_of(report: CoverageReport) -> list[str]:
    return [item.code for item in report.findings]


def test_a_seam_guarded_only_by_a_bare_exit_zero_case_is_weak_only(tmp_path: Path) -> None:
    report = show(tmp_path, fixture([bare_case("smoke", "s")], [seam("s")]))
    entry = only_seam(report)
    assert (entry.covered, entry.weak_only) == (False, True)
    assert entry.covering_cases == [] and entry.present_evidence == []
    assert entry.missing_evidence == ["deterministic"]
    assert [(w.case, w.reasons) for w in entry.weak_cases] == [("smoke", ["NO_FAILING_ORACLE"])]
    assert report.summary.verdict == "NOT_READY"
    (gap,) = report.prioritized_gaps
    assert (gap.seam_id, gap.weak_only, gap.rank) == ("s", True, 1)


def test_a_capable_deterministic_case_covers_a_seam_requiring_deterministic(
    tmp_path: Path,
) -> None:
    report = show(tmp_path, fixture([case("rejects", "s"), bare_case("smoke", "s")], [seam("s")]))
    entry = only_seam(report)
    assert (entry.covered, entry.weak_only) == (True, False)
    assert entry.covering_cases == ["rejects"]
    assert entry.present_evidence == ["deterministic"] and entry.missing_evidence == []
    assert [w.case for w in entry.weak_cases] == ["smoke"]
    assert entry.has_live_coverage is False
    assert report.summary.verdict == "READY" and report.prioritized_gaps == []


def test_a_capable_case_of_another_class_does_not_cover(tmp_path: Path) -> None:
    fuzz = case("fuzz", "s", evidence_class="property_or_fuzz")
    entry = only_seam(show(tmp_path, fixture([fuzz], [seam("s", "deterministic")])))
    assert entry.covered is False and entry.weak_only is False
    assert entry.present_evidence == ["property_or_fuzz"]
    assert entry.missing_evidence == ["deterministic"]


def test_every_required_class_needs_a_capable_case(tmp_path: Path) -> None:
    document = fixture(
        [case("det", "s"), live_case("live", "s")], [seam("s", "deterministic", "live_e2e")]
    )
    entry = only_seam(show(tmp_path, document))
    assert entry.covered is True and entry.has_live_coverage is True
    assert entry.present_evidence == ["deterministic", "live_e2e"]
    assert entry.covering_cases == ["det", "live"]


def test_a_pseudo_live_case_does_not_cover_a_seam_requiring_live(tmp_path: Path) -> None:
    # It declares live_e2e and runs the real entrypoint, but nothing reads state back.
    pseudo = live_case("pseudo", "s", readback=False)
    report = show(tmp_path, fixture([pseudo], [seam("s", "live_e2e")]))
    entry = only_seam(report)
    assert entry.covered is False and entry.has_live_coverage is False
    assert entry.unqualified_live_cases == ["pseudo"]
    # It can still fail (stdout_contains), so it guards in its effective class.
    assert entry.covering_cases == ["pseudo"] and entry.present_evidence == ["deterministic"]
    assert entry.missing_evidence == ["live_e2e"]
    assert report.summary.verdict == "NOT_READY"


def test_a_qualifying_live_case_covers_a_seam_requiring_live(tmp_path: Path) -> None:
    entry = only_seam(show(tmp_path, fixture([live_case("live", "s")], [seam("s", "live_e2e")])))
    assert entry.covered is True and entry.has_live_coverage is True
    assert entry.unqualified_live_cases == []


def test_a_case_without_evidence_class_is_qualified_as_live(tmp_path: Path) -> None:
    undeclared = live_case("implicit", "s", readback=False)
    del undeclared["evidence_class"]
    entry = only_seam(show(tmp_path, fixture([undeclared], [seam("s", "live_e2e")])))
    assert entry.unqualified_live_cases == ["implicit"] and entry.covered is False


def test_an_optional_case_does_not_cover(tmp_path: Path) -> None:
    optional = case("optional", "s", required=False)
    entry = only_seam(show(tmp_path, fixture([optional], [seam("s")])))
    assert entry.covered is False and entry.weak_only is True
    assert entry.weak_cases[0].reasons == ["NOT_REQUIRED_CASE"]


def test_seam_ids_used_by_cases_but_not_declared_are_reported(tmp_path: Path) -> None:
    document = fixture([case("c", "s", "ghost", "phantom")], [seam("s")])
    report = show(tmp_path, document)
    assert report.summary.undeclared_seam_ids == ["ghost", "phantom"]
    found = [f for f in report.findings if f.code == "AE-COV-UNDECLARED-SEAM"]
    assert [(f.seam_id, f.case, f.pointer) for f in found] == [
        ("ghost", "c", "/cases/0/seams/1"),
        ("phantom", "c", "/cases/0/seams/2"),
    ]
    assert all(f.severity == "warning" and f.file == "fixtures/agentic_eval.json" for f in found)
    assert [s.seam_id for s in report.seams] == ["s"]


def test_a_seam_no_case_lists_is_uncovered_but_not_weak(tmp_path: Path) -> None:
    report = show(tmp_path, fixture([case("c")], [seam("s")]))
    entry = only_seam(report)
    assert (entry.covered, entry.weak_only, entry.weak_cases) == (False, False, [])
    assert "no case lists it" in report.prioritized_gaps[0].detail


def test_seam_type_and_required_evidence_oddities_are_findings(tmp_path: Path) -> None:
    seams = [
        seam("untyped", seam_type=""),
        seam("odd", seam_type="browser_transport"),
        seam("known", seam_type="Browser/UI   Transport"),
        seam("typo", "live_e2", seam_type="cli"),
        seam("nothing", seam_type="cli", required_evidence=[]),
    ]
    report = show(tmp_path, fixture([case("c", "nothing")], seams))
    by_code = {(f.code, f.seam_id, f.severity) for f in report.findings}
    assert ("AE-COV-SEAM-TYPE-MISSING", "untyped", "warning") in by_code
    assert ("AE-COV-SEAM-TYPE-UNKNOWN", "odd", "info") in by_code
    assert not any(f.seam_id == "known" for f in report.findings)
    assert ("AE-COV-REQUIRED-EVIDENCE", "typo", "warning") in by_code
    assert ("AE-COV-REQUIRED-EVIDENCE", "nothing", "warning") in by_code
    hint = next(f for f in report.findings if f.seam_id == "odd").message
    assert "did you mean 'browser/ui transport'" in hint
    coverage = {s.seam_id: s for s in report.seams}
    assert coverage["typo"].missing_evidence == ["live_e2"]
    # With no class required, one capable case of any class covers.
    assert coverage["nothing"].covered is True


def test_a_rejected_fixture_is_still_analysed(tmp_path: Path) -> None:
    # One trial and no negative case: the gates reject it; an absolute artifact path
    # breaks the path rules. Coverage is static and analyses it all the same.
    escaping = case(
        "reads-tmp",
        "s",
        type="positive",
        expected={"exit_code": 0, "artifacts": [{"path": "/tmp/out.json", "exists": True}]},
    )
    report = show(tmp_path, fixture([escaping], [seam("s")], trials=1))
    assert only_seam(report).covered is True
    rejected = [f for f in report.findings if f.code == "AE-COV-FIXTURE-REJECTED"]
    assert len(rejected) == 1 and "AE-PATH-ESCAPE" in rejected[0].message
    assert report.summary.fixtures_not_loading == 1
    assert report.summary.verdict == "READY"


def test_a_case_the_models_reject_is_left_out(tmp_path: Path) -> None:
    broken = case("broken", "s", expected={"exit_code": 2, "stdout_contains": "not a list"})
    report = show(tmp_path, fixture([broken, bare_case("smoke", "s")], [seam("s")]))
    entry = only_seam(report)
    assert entry.covered is False and entry.weak_only is True
    (left_out,) = [f for f in report.findings if f.code == "AE-COV-CASE-UNREADABLE"]
    assert (left_out.case, left_out.pointer) == ("broken", "/cases/0")
    assert report.summary.cases == 1


def test_an_unparsable_fixture_makes_the_skill_not_ready(tmp_path: Path) -> None:
    skill = make_skill(
        tmp_path / "demo", files=PROD, fixture=fixture([case("c", "s")], [seam("s")])
    )
    (skill / "fixtures" / "agentic_eval_extra.json").write_text("{ not json")
    report = show_coverage(skill)
    assert "AE-COV-FIXTURE-UNREADABLE" in codes_of(report)
    assert only_seam(report).covered is True
    assert report.summary.verdict == "NOT_READY"


def test_a_seam_without_id_is_an_error_finding(tmp_path: Path) -> None:
    report = show(tmp_path, fixture([case("c", "s")], [seam("s"), {"seam_type": "cli"}]))
    (bad,) = [f for f in report.findings if f.code == "AE-COV-SEAM-UNREADABLE"]
    assert (bad.severity, bad.pointer) == ("error", "/seams/1")
    assert [s.seam_id for s in report.seams] == ["s"]
