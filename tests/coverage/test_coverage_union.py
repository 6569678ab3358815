"""Several fixtures per skill, and incident regressions per seam from the registry."""

from __future__ import annotations

import json
from pathlib import Path

from builders import PROD, make_skill
from coverage_helpers import bare_case, case, fixture, live_case, registry, regression, seam

from agentic_evals.coverage.show import show_coverage


def test_a_live_sibling_fixture_is_unioned(tmp_path: Path) -> None:
    primary = fixture([case("det", "s")], [seam("s", "deterministic", "live_e2e")])
    skill = make_skill(tmp_path / "demo", files=PROD, fixture=primary)
    live = fixture([live_case("live", "s"), case("other", "t")], [seam("t")])
    (skill / "fixtures" / "agentic_eval_live.json").write_text(json.dumps(live))
    report = show_coverage(skill)
    assert report.fixtures == ["fixtures/agentic_eval.json", "fixtures/agentic_eval_live.json"]
    coverage = {s.seam_id: s for s in report.seams}
    assert list(coverage) == ["s", "t"]
    assert coverage["s"].covered and coverage["s"].has_live_coverage
    assert coverage["s"].covering_cases == ["det", "agentic_eval_live.json#live"]
    assert coverage["s"].declared_in == ["fixtures/agentic_eval.json"]
    assert coverage["t"].covering_cases == ["agentic_eval_live.json#other"]
    assert report.summary.verdict == "READY" and report.summary.fixtures == 2


def test_without_the_live_sibling_the_same_seam_is_not_covered(tmp_path: Path) -> None:
    primary = fixture([case("det", "s")], [seam("s", "deterministic", "live_e2e")])
    report = show_coverage(make_skill(tmp_path / "demo", files=PROD, fixture=primary))
    assert report.seams[0].missing_evidence == ["live_e2e"]
    assert report.summary.verdict == "NOT_READY"


def test_a_skill_with_only_variant_fixtures_and_yaml_is_read(tmp_path: Path) -> None:
    skill = make_skill(
        tmp_path / "demo",
        files=PROD,
        fixture=fixture([bare_case("b", "s")], [seam("s")]),
        fixture_name="agentic_eval_x.json",
    )
    yaml_text = (
        "version: 2\nskill: demo\ntrials: 2\ncases:\n"
        "  - name: y\n    type: negative\n    evidence_class: deterministic\n"
        "    seams: [s]\n    command: [bash, ../prod.sh]\n"
        "    expected: {exit_code: 3, stderr_contains: [refused]}\n"
    )
    (skill / "fixtures" / "agentic_eval.yaml").write_text(yaml_text)
    report = show_coverage(skill)
    assert report.fixtures == ["fixtures/agentic_eval.yaml", "fixtures/agentic_eval_x.json"]
    assert report.seams[0].covering_cases == ["y"]
    assert [w.case for w in report.seams[0].weak_cases] == ["agentic_eval_x.json#b"]


def test_a_seam_declared_differently_is_merged_strictly(tmp_path: Path) -> None:
    primary = fixture([case("det", "s")], [seam("s", "deterministic", criticality="important")])
    skill = make_skill(tmp_path / "demo", files=PROD, fixture=primary)
    other = fixture([case("o")], [seam("s", "live_e2e")])
    (skill / "fixtures" / "agentic_eval_more.json").write_text(json.dumps(other))
    report = show_coverage(skill)
    (entry,) = report.seams
    assert entry.effective_criticality == "critical"
    assert entry.required_evidence == ["deterministic", "live_e2e"]
    assert entry.declared_in == ["fixtures/agentic_eval.json", "fixtures/agentic_eval_more.json"]
    assert [f.code for f in report.findings].count("AE-COV-SEAM-CONFLICT") == 1
    assert report.summary.verdict == "NOT_READY"


def test_incident_regressions_are_listed_at_their_seams(tmp_path: Path) -> None:
    records = registry(
        regression("r-ids", "a", "b"),
        {"regression_id": "r-alias", "retained_case": "guard", "seams": ["a"]},
        regression("r-retired", "a", status="RETIRED", retirement="superseded"),
        regression("r-exempt", "b", status="EXEMPT", reason="off", owner="o", expires="2999-01-01"),
        regression("r-elsewhere", "nowhere"),
    )
    document = fixture([case("c", "a")], [seam("a"), seam("b")])
    report = show_coverage(
        make_skill(tmp_path / "demo", files=PROD, fixture=document, registry=records)
    )
    coverage = {s.seam_id: s for s in report.seams}
    assert coverage["a"].incident_regressions == ["r-ids", "r-alias"]
    assert coverage["b"].incident_regressions == ["r-ids", "r-exempt"]
    assert report.registry == "fixtures/regressions.json"
    (gap,) = report.prioritized_gaps
    assert gap.incident_regressions == ["r-ids", "r-exempt"]
    (unknown,) = [f for f in report.findings if f.code == "AE-COV-REGRESSION-SEAM"]
    assert "r-elsewhere" in unknown.message and unknown.severity == "info"
    assert not [f for f in report.findings if f.code == "AE-COV-REGISTRY"]  # it loaded


def test_a_seams_regressions_carry_the_verdict_of_regressions_show(tmp_path: Path) -> None:
    from regression_helpers import TALLY, structural, tally_fixture

    from agentic_evals.regressions.audit import show_skill
    from agentic_evals.regressions.verify import VerifyOptions, verify_skill

    guard = tally_fixture(seams=["sum"]) | {"seams": [seam("sum")]}
    records = registry(structural("proven", seam_ids=["sum"]))
    skill = make_skill(
        tmp_path / "demo", files={"tally.sh": TALLY}, fixture=guard, registry=records
    )
    (skill / "tally.sh").chmod(0o755)
    outcome = verify_skill(skill, VerifyOptions(write=True))
    assert outcome.verify is not None and outcome.verify.written == ["proven"]
    path = skill / "fixtures" / "regressions.json"
    written = json.loads(path.read_text())
    written["regressions"] += [
        structural("echoed", seam_ids=["sum"], fail_before_fix={"proof_command": ["true"]}),
        structural("hand-dated", seam_ids=["sum"], last_proven="2026-01-01"),
    ]
    path.write_text(json.dumps(written))
    [entry] = show_coverage(skill).seams
    shown = show_skill(skill).show
    assert shown is not None
    assert [(e.regression_id, e.established_fail_before_fix, e.proof_state) for e in
            entry.regression_evidence] == [
        (row.regression_id, row.established_fail_before_fix, row.proof_state) for row in shown.rows
    ] == [("proven", True, "established"), ("echoed", False, "weak"),
          ("hand-dated", False, "unverified")]  # fmt: skip
    assert show_coverage(skill).summary.unestablished_regressions == 2


def test_incidents_rank_gaps_within_a_tie(tmp_path: Path) -> None:
    records = registry(regression("r1", "z"))
    document = fixture([case("c")], [seam("a"), seam("z")])
    report = show_coverage(
        make_skill(tmp_path / "demo", files=PROD, fixture=document, registry=records)
    )
    assert [g.seam_id for g in report.prioritized_gaps] == ["z", "a"]


def test_a_registry_the_loader_rejects_is_still_read(tmp_path: Path) -> None:
    records = [{"regression_id": "r1", "seam_ids": ["a"], "status": "ACTIVE"}, {"oops": 1}]
    document = fixture([case("c", "a")], [seam("a")])
    report = show_coverage(
        make_skill(tmp_path / "demo", files=PROD, fixture=document, registry=records)
    )
    assert report.seams[0].incident_regressions == ["r1"]
    problems = [f for f in report.findings if f.code == "AE-COV-REGISTRY"]
    assert problems and all(f.severity == "warning" for f in problems)
    assert any(f.pointer == "/1" for f in problems)


def test_an_unreadable_registry_lists_no_incidents(tmp_path: Path) -> None:
    skill = make_skill(
        tmp_path / "demo", files=PROD, fixture=fixture([case("c", "a")], [seam("a")])
    )
    (skill / "fixtures" / "regressions.json").write_text("{")
    report = show_coverage(skill)
    assert report.seams[0].incident_regressions == []
    assert [f.code for f in report.findings] == ["AE-COV-REGISTRY"]
    assert report.summary.verdict == "READY"


def test_no_registry_is_no_incident(tmp_path: Path) -> None:
    report = show_coverage(
        make_skill(tmp_path / "demo", files=PROD, fixture=fixture([case("c", "a")], [seam("a")]))
    )
    assert report.registry is None and report.findings == []


def test_a_runner_selftest_fixture_guards_no_seam_of_the_skill(tmp_path: Path) -> None:
    primary = fixture([case("det", "s")], [seam("s", "deterministic", "live_e2e")])
    skill = make_skill(tmp_path / "demo", files=PROD, fixture=primary)
    selftest = {**fixture([live_case("live", "s")], []), "eval_kind": "runner_selftest"}
    (skill / "fixtures" / "agentic_eval_live.json").write_text(json.dumps(selftest))
    report = show_coverage(skill)
    assert report.seams[0].covering_cases == ["det"]
    assert report.seams[0].missing_evidence == ["live_e2e"]
    # The same fixture as an ordinary skill fixture would cover it.
    (skill / "fixtures" / "agentic_eval_live.json").write_text(
        json.dumps({**selftest, "eval_kind": "skill"})
    )
    assert show_coverage(skill).seams[0].missing_evidence == []
