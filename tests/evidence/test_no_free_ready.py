"""No free READY, judged from the case records alone: a run and a merge derive it alike."""

from __future__ import annotations

from typing import Any

from builders import case_report

from agentic_evals.judge.gate import Scope, derive


def cases(**negative: Any) -> list[Any]:
    positive = case_report("writes", real_world=True)
    refuses = case_report("refuses", type="negative", **negative)
    return [positive, refuses]


def test_a_skill_without_claims_whose_negative_shows_no_reason_is_usable_with_gaps() -> None:
    judged = derive(
        cases(reason_problem="expects exit 127"), None, trials_per_case=2, scope=Scope("skill")
    )
    assert judged.case_readiness == "READY" and judged.readiness == "USABLE_WITH_GAPS"
    (none,) = judged.evidence_findings
    assert none.code == "AE-EVID-NONE" and "'refuses' expects exit 127" in none.message


def test_the_rule_holds_for_skills_without_claims_only() -> None:
    hollow = cases(weak=True, reason_problem="no check")
    assert derive(hollow, None, trials_per_case=2, scope=Scope("skill")).readiness != "READY"
    selftest = derive(hollow, None, trials_per_case=2, scope=Scope("runner_selftest"))
    assert selftest.readiness == "READY" and selftest.evidence_findings == []
    # In a focused run the cases' shortfall is no finding (the run is capped anyway).
    focused = derive(hollow, None, trials_per_case=2, scope=Scope("skill", focused=True))
    assert focused.evidence_findings == [] and focused.readiness == "NOT_ESTABLISHED"


def test_a_weak_real_world_positive_or_an_optional_one_leaves_a_gap() -> None:
    for positive in (
        case_report("writes", real_world=True, weak=True),
        case_report("writes", real_world=True, required=False),
        case_report("writes", real_world=False),
    ):
        refuses = case_report("refuses", type="negative")
        judged = derive([positive, refuses], None, trials_per_case=2, scope=Scope("skill"))
        assert "a required real_world positive case" in judged.evidence_findings[0].message
        # No required real-world case counts either: the anti-slop rule, judged on the records.
        assert judged.evidence_findings[1].code == "AE-SLOP-NO-REAL-WORLD"
        assert judged.readiness == "NOT_READY"
    # A real-world negative case satisfies the anti-slop rule, not the need for a positive one.
    positive = case_report("writes", real_world=False)
    refuses = case_report("refuses", type="negative", real_world=True)
    judged = derive([positive, refuses], None, trials_per_case=2, scope=Scope("skill"))
    assert [f.code for f in judged.evidence_findings] == ["AE-EVID-NONE"]
    assert judged.readiness == "USABLE_WITH_GAPS"


def test_vacuous_checks_are_named_at_their_pointers_in_the_fixture() -> None:
    named = case_report("writes", real_world=True, vacuous_checks=["/cases/0/expected/artifacts/1"])
    judged = derive(
        [named, case_report("refuses", type="negative")],
        None,
        trials_per_case=2,
        scope=Scope("skill"),
    )
    assert judged.readiness == "READY"
    assert [(f.code, f.pointer, f.severity) for f in judged.evidence_findings] == [
        ("VACUOUS_ORACLE", "/cases/0/expected/artifacts/1", "warning")
    ]
