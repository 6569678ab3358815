"""The report's field set is pinned per version: changing it needs a new version."""

from __future__ import annotations

import pytest

from agentic_evals.reports.model import (
    CASE_OUTCOMES,
    REPORT_SCHEMA,
    CaseReport,
    ConfigurationReport,
    Report,
    ResumedFrom,
    ShardInfo,
    TrialReport,
)


def aliases(model: type) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}  # type: ignore[attr-defined]


def test_report_v2_top_level_fields() -> None:
    assert REPORT_SCHEMA == "agentic_evals.report.v2"
    assert aliases(Report) == {
        "schema", "source", "skill", "eval_kind", "run_id", "fixture_sha256", "repo", "runner",
        "live", "mocked", "proof_scope", "claims", "what_was_exercised", "what_remains_unverified",
        "readiness", "case_readiness", "capability_readiness", "claims_coverage", "focused_cases",
        "interrupted", "qualification", "shard", "isolation", "configuration", "resumed_from",
        "trial_settings_sha256", "fixture_cases", "readiness_limit", "generated_at", "duration_ms",
        "trials_per_case", "case_count", "required_case_count", "outcome_counts", "trial_count",
        "warnings", "evidence_findings", "metrics", "cases",
    }  # fmt: skip


def test_report_v2_case_and_trial_fields() -> None:
    assert aliases(CaseReport) == {
        "case_id", "name", "type", "required", "outcome", "flaky", "problems", "argv",
        "declared_evidence_class", "effective_evidence_class", "live_qualified",
        "evidence_disqualifiers", "supports_claims", "seams", "test_source_sha256",
        "oracle_sha256", "passed_trials", "total_trials", "pass_rate", "trials", "expected",
        "must_exercise", "blocked_when_stdout_contains", "infra_blocked_when", "skill_files",
        "real_world", "vacuous_checks", "weak", "reason_problem", "claims_sampling",
        "live_path_problem",
    }  # fmt: skip
    assert aliases(TrialReport) == {
        "trial_id", "outcome", "problems", "exit_code", "term_signal", "timed_out",
        "duration_ms", "stdout", "stderr", "truncated", "stdout_stats", "stderr_stats",
        "orphan_pids_after_teardown", "artifact_hashes", "stdout_sha256", "trace_method",
        "traced_execs", "workspace_changes", "workspace_path", "isolation", "null_trial_failures",
        "file_trace", "reused", "reused_from",
    }  # fmt: skip


def test_report_v2_isolation_fields() -> None:
    from agentic_evals.reports.model import IsolationSummary, Leftover, TrialIsolation

    assert aliases(TrialIsolation) == {
        "mode", "requested", "network", "mechanisms", "unavailable", "not_copied",
    }  # fmt: skip
    assert aliases(IsolationSummary) == {
        "modes", "networks", "mechanisms", "shared_tree_trials", "notes", "warnings", "leftovers",
    }  # fmt: skip
    assert aliases(Leftover) == {"run_id", "pid", "name", "still_running", "how"}
    assert Report.model_fields["isolation"].default is None
    assert TrialReport.model_fields["isolation"].default is None


def test_report_v2_shard_fields() -> None:
    assert aliases(ShardInfo) == {"index", "total"}
    assert Report.model_fields["shard"].default is None


def test_report_v2_optional_fields_default_to_null() -> None:
    # Reports written before these fields existed still validate.
    for name in ("expected", "must_exercise", "skill_files", "infra_blocked_when"):
        assert CaseReport.model_fields[name].default is None
    for name in ("configuration", "resumed_from", "trial_settings_sha256"):
        assert Report.model_fields[name].default is None
    assert TrialReport.model_fields["reused"].default is False
    assert TrialReport.model_fields["reused_from"].default is None
    assert aliases(ResumedFrom) == {
        "path", "run_id", "report_sha256", "runs", "kept_trials", "changed_cases", "retry_infra",
    }  # fmt: skip
    assert aliases(ConfigurationReport) == {"file", "enabled", "values", "sources"}


def test_every_case_outcome_is_counted() -> None:
    assert set(CASE_OUTCOMES) == {"PASS", "FAIL", "BLOCKED", "NOT_TESTED"}


def test_report_v2_capability_readiness_and_qualification_fields() -> None:
    from agentic_evals.reports.model import (
        CapabilityReadiness,
        ClaimEvidence,
        ClaimReadiness,
        QualificationReport,
    )

    assert aliases(CapabilityReadiness) == {
        "aggregate_readiness", "critical_claim_count", "critical_claims_proven", "claims",
    }  # fmt: skip
    assert aliases(ClaimReadiness) == {
        "id", "description", "criticality", "claim_semantics", "domain_profile",
        "evidence_required", "verdict", "per_class", "class_cases", "missing_evidence",
        "exempt_evidence", "ignored_exemptions", "unqualified_live_cases", "supporting_cases",
        "requires_requalification", "shared_live_cases", "required_representations",
        "missing_representations", "value_representation_seam", "claim_sha256", "independence",
        "threats",
        "evidence",
    }  # fmt: skip
    assert aliases(ClaimEvidence) == {
        "case", "type", "declared_evidence_class", "effective_evidence_class", "live_qualified",
        "representation", "ineligible", "threat",
    }  # fmt: skip
    assert aliases(QualificationReport) == {
        "run_tier", "require_system_test", "passed_at", "not_passed", "missing_system_test",
    }  # fmt: skip


def test_every_document_a_test_writes_is_held_to_its_schema() -> None:
    # tests/conftest.py checks each written document against its committed schema.
    from pydantic import Field

    from agentic_evals.documents.base import OutputModel
    from agentic_evals.reports import json_out

    class Forged(OutputModel):
        schema_: str = Field("agentic_evals.report.v2", alias="schema")
        readiness: str = "READY"

    with pytest.raises(AssertionError, match=r"agentic_evals\.report\.v2"):
        json_out.dump_model(Forged())
