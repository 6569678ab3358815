"""compare: every class, every kind of weakening, claims, skill files, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from outputs_helpers import REPO, copy_sample, run_fixture

from agentic_evals.cli import cli
from agentic_evals.compare.classify import NotComparableError, compare_reports
from agentic_evals.judge.provenance import canonical_json, sha256_bytes
from agentic_evals.reports.model import CaseReport, Report


def with_claim(report: Report, claim_id: str, **update: Any) -> Report:
    """``report`` with the claim ``claim_id`` changed by ``update``."""
    block = report.capability_readiness
    assert block is not None
    claims = [c.model_copy(update=update) if c.id == claim_id else c for c in block.claims]
    return report.model_copy(
        update={"capability_readiness": block.model_copy(update={"claims": claims})}
    )


def with_case(report: Report, name: str, **update: Any) -> Report:
    """``report`` with case ``name`` changed; a new ``expected`` gets its hash."""
    if "expected" in update:
        update["oracle_sha256"] = sha256_bytes(canonical_json(update["expected"]))
    cases = [c.model_copy(update=update) if c.name == name else c for c in report.cases]
    return report.model_copy(update={"cases": cases})


def case(report: Report, name: str) -> CaseReport:
    return next(c for c in report.cases if c.name == name)


def compare(base: Report, head: Report) -> Any:
    return compare_reports(base, head, base_source="base.json", head_source="head.json")


def expected(report: Report, name: str, **changes: Any) -> dict[str, Any]:
    value = dict(case(report, name).expected or {})
    value.update(changes)
    return {k: v for k, v in value.items() if v is not None}


def test_the_same_report_is_all_unchanged(mixed_report: Report) -> None:
    result = compare(mixed_report, mixed_report)
    assert result.unchanged == [c.case_id for c in mixed_report.cases]
    assert not result.gate_failed


def test_an_oracle_removed_weakens_a_case_that_still_passes(tmp_path: Path) -> None:
    skill = copy_sample("outputs", tmp_path / "outputs")
    fixture = skill / "agentic_eval.json"
    base = run_fixture(fixture)
    document = json.loads(fixture.read_text())
    del document["cases"][0]["expected"]["stdout_contains"]
    fixture.write_text(json.dumps(document))
    head = run_fixture(fixture)
    result = compare(base, head)
    assert case(head, "writes-receipt").outcome == "PASS"
    assert result.weakened == ["outputs-sample::writes-receipt"]
    change = result.cases[0].weakened[0]
    assert (change.kind, change.check) == ("ORACLE_REMOVED", "stdout_contains")
    assert result.regressed == [] and result.gate_failed


LOOSENINGS = [
    ("stdout shortened", "writes-receipt", {"stdout_contains": ["wrote"]}, "ORACLE_LOOSENED"),
    ("exit code changed", "writes-receipt", {"exit_code": 3}, "ORACLE_REPLACED"),
    (
        "equals replaced by exists",
        "writes-receipt",
        {"artifacts": [{"path": "out/receipt.json", "exists": True}]},
        "ORACLE_LOOSENED",
    ),
    (
        "pointer moved up",
        "writes-receipt",
        {"artifacts": [{"path": "out/receipt.json", "json_pointer": ""}]},
        "ORACLE_LOOSENED",
    ),
    ("artifact removed", "writes-receipt", {"artifacts": None}, "ORACLE_REMOVED"),
]


@pytest.mark.parametrize(
    ("why", "name", "changes", "kind"), LOOSENINGS, ids=[x[0] for x in LOOSENINGS]
)
def test_each_kind_of_loosening(
    mixed_report: Report, why: str, name: str, changes: dict[str, Any], kind: str
) -> None:
    head = with_case(mixed_report, name, expected=expected(mixed_report, name, **changes))
    result = compare(mixed_report, head)
    assert [c.kind for c in result.cases[0].weakened][:1] == [kind], why
    assert result.weakened == [f"outputs-sample::{name}"] and result.gate_failed


def test_artifact_and_workspace_loosenings(mixed_report: Report) -> None:
    def weakened(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
        base = with_case(mixed_report, "fails-loudly", expected=old)
        head = with_case(mixed_report, "fails-loudly", expected=new)
        return [c.kind for c in compare(base, head).cases[2].weakened]

    size = {"exit_code": 0, "artifacts": [{"path": "a", "min_bytes": 100}]}
    assert weakened(size, {**size, "artifacts": [{"path": "a", "min_bytes": 10}]}) == [
        "ORACLE_LOOSENED"
    ]
    assert weakened({**size, "artifacts": [{"path": "a", "min_bytes": 10}]}, size) == []
    excl = {"exit_code": 0, "stdout_excludes": ["Trace"]}
    assert weakened(excl, {"exit_code": 0, "stdout_excludes": ["Traceback"]}) == ["ORACLE_LOOSENED"]
    only = {"exit_code": 0, "workspace_changes": {"added": ["out/*"], "only": True}}
    assert weakened(only, {"exit_code": 0, "workspace_changes": {"added": ["out/*"]}}) == [
        "ORACLE_REMOVED"
    ]
    wider = {"exit_code": 0, "workspace_changes": {"added": ["out/*", "**"], "only": True}}
    assert weakened(only, wider) == ["ORACLE_LOOSENED"]


def test_trials_optional_markers_and_must_exercise(mixed_report: Report) -> None:
    fewer = mixed_report.model_copy(update={"trials_per_case": 1})
    result = compare(mixed_report, fewer)
    assert len(result.weakened) == 6
    assert {c.kind for d in result.cases for c in d.weakened} == {"TRIALS_LOWERED"}
    optional = with_case(mixed_report, "writes-receipt", required=False)
    assert [c.kind for c in compare(mixed_report, optional).cases[0].weakened] == ["MADE_OPTIONAL"]
    assert compare(optional, mixed_report).strengthened == ["outputs-sample::writes-receipt"]
    marker = with_case(mixed_report, "writes-receipt", infra_blocked_when=["flaky network"])
    assert [c.kind for c in compare(mixed_report, marker).cases[0].weakened] == ["MARKER_ADDED"]
    traced = with_case(mixed_report, "writes-receipt", must_exercise=["tool.sh"])
    assert [c.kind for c in compare(traced, mixed_report).cases[0].weakened] == [
        "MUST_EXERCISE_REMOVED"
    ]


def test_outcome_classes_added_and_removed(mixed_report: Report) -> None:
    regressed = with_case(mixed_report, "writes-receipt", outcome="FAIL")
    result = compare(mixed_report, regressed)
    assert result.regressed == ["outputs-sample::writes-receipt"] and result.gate_failed
    fixed = compare(regressed, mixed_report)
    assert fixed.fixed == ["outputs-sample::writes-receipt"] and not fixed.gate_failed
    flaky = with_case(mixed_report, "writes-receipt", flaky=True)
    assert compare(mixed_report, flaky).new_flaky == ["outputs-sample::writes-receipt"]
    fewer = mixed_report.model_copy(update={"cases": mixed_report.cases[1:]})
    assert compare(mixed_report, fewer).removed == ["outputs-sample::writes-receipt"]
    assert compare(fewer, mixed_report).added == ["outputs-sample::writes-receipt"]


def test_a_claim_lowered_from_critical_to_important_weakens_it(mixed_report: Report) -> None:
    head = with_claim(mixed_report, "out.receipt", criticality="important")
    result = compare(mixed_report, head)
    assert result.weakened_claims == ["out.receipt"] and result.gate_failed
    assert result.claims[0].weakened[0].kind == "CRITICALITY_LOWERED"
    assert result.unchanged == [c.case_id for c in mixed_report.cases]
    head = with_claim(
        mixed_report, "out.receipt", supporting_cases=["writes-receipt"], evidence_required=[]
    )
    kinds = [c.kind for c in compare(mixed_report, head).claims[0].weakened]
    assert kinds == ["EVIDENCE_LOWERED", "CASE_REMOVED_FROM_CLAIM"]


def test_changed_skill_files_are_listed(mixed_report: Report) -> None:
    head = mixed_report.model_copy(
        update={
            "cases": [
                c.model_copy(update={"skill_files": {"tool.sh": "sha256:" + "0" * 64}})
                for c in mixed_report.cases
            ]
        }
    )
    result = compare(mixed_report, head)
    assert [f.path for f in result.skill_files_changed] == ["tool.sh"]
    assert len(result.skill_files_changed[0].cases) == 6


def test_reports_that_cannot_be_compared(mixed_report: Report, ready_report: Report) -> None:
    with pytest.raises(NotComparableError, match="skill"):
        compare(mixed_report, ready_report)
    tampered = with_case(mixed_report, "writes-receipt", oracle_sha256="0" * 64)
    with pytest.raises(NotComparableError, match="was edited"):
        compare(mixed_report, tampered)
    focused = mixed_report.model_copy(update={"focused_cases": ["writes-receipt"]})
    with pytest.raises(NotComparableError, match="focused"):
        compare(mixed_report, focused)


def test_the_command_exits_by_the_gate_and_writes_valid_json(
    mixed_report: Report, tmp_path: Path
) -> None:
    base, head = tmp_path / "base.json", tmp_path / "head.json"
    base.write_text(mixed_report.model_dump_json(by_alias=True))
    weaker = with_case(mixed_report, "writes-receipt", required=False)
    head.write_text(weaker.model_dump_json(by_alias=True))
    out = tmp_path / "compare.json"
    result = CliRunner().invoke(cli, ["compare", str(base), str(head), "-o", str(out)])
    assert result.exit_code == 1 and "MADE_OPTIONAL" in result.stdout
    document = json.loads(out.read_text())
    schema = json.loads((REPO / "schemas" / "compare.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["weakened"] == ["outputs-sample::writes-receipt"]
    assert set(document) >= {
        "regressed",
        "fixed",
        "new_flaky",
        "strengthened",
        "added",
        "removed",
        "unchanged",
        "readiness",
        "claims",
    }
    lenient = CliRunner().invoke(
        cli, ["compare", str(base), str(head), "--report-only", "--format", "markdown"]
    )
    assert lenient.exit_code == 0 and lenient.stdout.startswith("### ❌ agentic-evals compare")
    same = CliRunner().invoke(cli, ["compare", str(base), str(base)])
    assert same.exit_code == 0
    # Run references read the history (tests/history/test_history_compare.py); here it is empty.
    history = CliRunner().invoke(cli, ["compare", "last~1", "last"])
    assert history.exit_code == 2 and "the history holds 0 run(s)" in history.output


def test_readiness_and_claim_verdicts_that_get_worse_fail_the_gate(
    mixed_report: Report, ready_report: Report
) -> None:
    worse = mixed_report.model_copy(update={"readiness": "NOT_READY"})
    result = compare(mixed_report, worse)
    assert (result.readiness.base, result.readiness.head, result.readiness.change) == (
        "USABLE_WITH_GAPS",
        "NOT_READY",
        "worse",
    )
    assert result.gate_failed and result.unchanged == [c.case_id for c in mixed_report.cases]
    assert compare(worse, mixed_report).readiness.change == "better"
    head = with_claim(mixed_report, "out.receipt", verdict="FAILED")
    result = compare(mixed_report, head)
    assert result.regressed_claims == ["out.receipt"] and result.gate_failed
    assert (result.claims[0].base_verdict, result.claims[0].head_verdict) == ("PROVEN", "FAILED")
