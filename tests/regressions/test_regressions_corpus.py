"""The real registries of the shared corpus: the audit reports what the data holds."""

from __future__ import annotations

import pytest
from builders import AGENT_SKILLS as CORPUS
from click.testing import CliRunner
from regression_helpers import freeze_today

from agentic_evals.cli import cli
from agentic_evals.regressions.audit import show_skill
from agentic_evals.regressions.results import RegressionsAudit, SkillRegressions
from agentic_evals.regressions.tree import audit_tree

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")


@pytest.fixture
def audit(monkeypatch: pytest.MonkeyPatch) -> RegressionsAudit:
    freeze_today(monkeypatch, "2026-09-20")
    return audit_tree(CORPUS)


def skill(audit: RegressionsAudit, name: str) -> SkillRegressions:
    [found] = [entry for entry in audit.skills if entry.skill == name]
    assert found.valid
    return found


def test_every_registry_loads_and_the_local_one_is_skipped(audit: RegressionsAudit) -> None:
    assert [entry.skill for entry in audit.skills] == [
        "agentic-evals",
        "ask",
        "project-watchdog",
        "surf",
    ]
    assert all(entry.valid for entry in audit.skills)
    [skipped] = audit.skipped
    assert skipped.skill == "ai-detection" and skipped.path.endswith("regressions.local.json")
    assert skipped.reason == (
        "not an agentic-evals regression registry: it declares "
        "'ai_detection.development_regressions.v1'"
    )
    summary = audit.summary.regressions
    assert (summary.total, summary.active, summary.unprotected) == (10, 10, 5)
    assert (summary.never_proven_fail_before_fix, summary.unmapped_incidents) == (10, 2)
    assert summary.stale_live_proof == 0  # the live proofs are 17 days old on 2026-09-20


def test_every_free_form_proof_of_the_corpus_is_weak(audit: RegressionsAudit) -> None:
    rows = [row for entry in audit.skills for row in entry.rows]
    assert len(rows) == 10
    assert {(row.proof, row.proof_state) for row in rows} == {("proof_command", "weak")}
    assert not any(row.established_fail_before_fix for row in rows)
    assert audit.summary.regressions.weak_proof == 10
    for row in rows:
        [weak] = [issue for issue in row.issues if issue.startswith("WEAK_PROOF")]
        assert "a proof_command is free-form" in weak


def test_the_ask_guards_its_fixture_lacks_are_unprotected(audit: RegressionsAudit) -> None:
    ask = skill(audit, "ask")
    assert [(row.regression_id, row.protected) for row in ask.rows] == [
        ("surf-transport-down-chrome-profile-picker-20260902", False),
        ("webgpt-submit-not-accepted-empty-url-tab-20260903", False),
    ]
    for row in ask.rows:
        assert row.issues[0] == "UNPROTECTED: retained fixture agentic_eval.json does not exist"
        assert row.last_proven is not None  # via the fail_before_fix alias: proves nothing
        assert not row.established_fail_before_fix
        assert any(issue.startswith("WEAK_PROOF") for issue in row.issues)
    assert {f.code for f in ask.findings} == {"AE-REG-ALIAS", "AE-SCHEMA-UNKNOWN"}


def test_the_agentic_evals_incidents_nothing_maps_are_listed(audit: RegressionsAudit) -> None:
    evals = skill(audit, "agentic-evals")
    assert [i.id for i in evals.unmapped_incidents] == [
        "ask-stale-browser-tab",
        "live-evidence-resume-duplication",
    ]
    assert all(row.protected and not row.established_fail_before_fix for row in evals.rows)
    assert len(evals.rows) == 5
    unknown = {f.pointer.rsplit("/", 1)[-1] for f in evals.findings}
    assert unknown == {"proven", "proven_date", "rationale"}  # kept, with warnings


def test_watchdog_and_surf_guards_are_missing_or_unloadable(audit: RegressionsAudit) -> None:
    watchdog = skill(audit, "project-watchdog")
    assert [row.protected for row in watchdog.rows] == [False, False]
    assert all("is not in agentic_eval.json" in row.issues[0] for row in watchdog.rows)
    [surf] = skill(audit, "surf").rows
    assert not surf.protected
    assert "agentic_eval_browser_loading.json does not load" in surf.issues[0]


def test_live_proofs_go_stale_after_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_today(monkeypatch, "2026-10-04")  # 31 days after 2026-09-03
    outcome = show_skill(CORPUS / "surf")
    assert outcome.show is not None and outcome.show.rows[0].stale_live_proof


def test_the_cli_audit_runs_over_the_corpus() -> None:
    result = CliRunner().invoke(cli, ["regressions", "audit", str(CORPUS)])
    assert result.exit_code == 1, result.output
    assert "UNMAPPED incident ask-stale-browser-tab" in result.output
    local = CliRunner().invoke(cli, ["regressions", "show", str(CORPUS / "ai-detection")])
    assert local.exit_code == 2 and "not an agentic-evals regression registry" in local.output
