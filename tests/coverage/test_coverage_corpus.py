"""The real skills of ../shared/corpus/agent-skills, and this repository's own fixture."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from builders import AGENT_SKILLS as CORPUS
from builders import REPO, SCHEMAS
from click.testing import CliRunner

from agentic_evals.cli import cli
from agentic_evals.coverage.audit import audit_coverage
from agentic_evals.coverage.models import CoverageAudit, SkillCoverage
from agentic_evals.coverage.show import show_coverage

corpus_only = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")


@pytest.fixture(scope="module")
def audit() -> CoverageAudit:
    return audit_coverage(CORPUS)


def skill(audit: CoverageAudit, name: str) -> SkillCoverage:
    return next(entry for entry in audit.skills if entry.skill == name)


@corpus_only
def test_the_corpus_audit_runs_and_pins_its_summary(audit: CoverageAudit) -> None:
    summary = audit.summary
    assert summary.skills == 30
    assert audit.skipped == [
        "agents-registry",
        "ai-detection",
        "dogpile",
        "project-state",
        "sparta-stress-test",
    ]
    assert summary.verdicts == {"READY": 5, "NOT_READY": 10, "NO_CRITICAL_SEAMS_DECLARED": 15}
    assert (summary.seams, summary.covered, summary.weak_only) == (99, 28, 3)
    assert summary.undeclared_seam_ids == 14


@corpus_only
def test_agent_ecosystem_names_undeclared_seams_and_guards_weakly(audit: CoverageAudit) -> None:
    entry = skill(audit, "agent-ecosystem")
    assert entry.summary.undeclared_seam_ids == [
        "agent-ecosystem-skill-doc",
        "shame-immutable-goal",
    ]
    # Its cases assert nothing but exit 0: every declared seam is weak-only.
    assert (entry.summary.seams, entry.summary.weak_only, entry.summary.covered) == (3, 3, 0)
    assert entry.summary.verdict == "NOT_READY"
    assert all(gap.weak_only for gap in entry.prioritized_gaps)


@corpus_only
def test_undeclared_seams_of_other_skills(audit: CoverageAudit) -> None:
    assert skill(audit, "agentic-evals").summary.undeclared_seam_ids == [
        "remediation.categorize",
        "remediation.dag_gate",
        "remediation.plan",
        "remediation.visualization",
    ]
    watchdog = skill(audit, "project-watchdog")
    assert len(watchdog.summary.undeclared_seam_ids) == 8
    assert watchdog.summary.verdict == "NO_CRITICAL_SEAMS_DECLARED"


@corpus_only
def test_a_detection_lacks_value_representation_seams(audit: CoverageAudit) -> None:
    gaps = skill(audit, "a-detection").prioritized_gaps
    missing = sorted(str(g.claim_id) for g in gaps if g.kind == "missing_value_representation_seam")
    # A seam *named* value-representation is of type typed-boundary: it does not count.
    assert missing == ["unicode-replay", "value-representation"]


@corpus_only
def test_a_high_seam_counts_as_critical(audit: CoverageAudit) -> None:
    report = show_coverage(CORPUS / "analyze-chatterbox-emotions")
    pause = next(s for s in report.seams if s.seam_id == "pause_plan_comparison")
    assert (pause.criticality, pause.effective_criticality, pause.covered) == (
        "high",
        "critical",
        True,
    )
    assert report.summary.critical_seams == 2 and report.summary.verdict == "READY"


@corpus_only
def test_multi_fixture_skills_are_unioned_with_incidents() -> None:
    surf = show_coverage(CORPUS / "surf")
    assert len(surf.fixtures) == 5
    page = next(s for s in surf.seams if s.seam_id == "surf.chrome_external_page_commit")
    assert page.incident_regressions == ["chrome-external-pages-blank-loading-20260903"]
    assert page.declared_in == ["fixtures/agentic_eval_browser_loading.json"]
    ask = show_coverage(CORPUS / "ask")
    assert len(ask.fixtures) == 10 and "fixtures/agentic_eval.json" not in ask.fixtures
    tabs = next(s for s in ask.seams if s.seam_id == "browser.tab_lifecycle")
    assert tabs.incident_regressions == ["webgpt-submit-not-accepted-empty-url-tab-20260903"]


@corpus_only
def test_the_corpus_audit_cli_writes_a_valid_document(tmp_path: Path) -> None:
    output = tmp_path / "audit.json"
    result = CliRunner().invoke(cli, ["coverage", "audit", str(CORPUS), "-o", str(output)])
    assert result.exit_code == 1, result.output
    schema = json.loads((SCHEMAS / "coverage_audit.schema.json").read_text())
    document = json.loads(output.read_text())
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(document)) == []
    assert "verdicts: READY 5, NOT_READY 10, NO_CRITICAL_SEAMS_DECLARED 15" in result.output


def test_this_repository_is_ready() -> None:
    result = CliRunner().invoke(cli, ["coverage", "show", str(REPO)])
    assert result.exit_code == 0, result.output
    report = show_coverage(REPO)
    assert report.summary.verdict == "READY"
    assert report.summary.critical_seams == report.summary.critical_covered > 0
    assert all(seam.has_live_coverage for seam in report.seams)
