"""A report as an Every Eval Ever 0.2.2 aggregate envelope (docs/eee.md has the mapping).

Everything comes from the report, nothing from the clock or the machine, so
exporting one run twice gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Final

from agentic_evals.interchange.eee_models import (
    EEE_VERSION,
    DetailedResults,
    Envelope,
    EvalLibrary,
    ModelInfo,
    SourceMetadata,
)
from agentic_evals.interchange.identity import (
    epoch,
    evaluation_id,
    finished_at,
    iso,
    model_id,
    started_at,
)
from agentic_evals.interchange.results import results
from agentic_evals.reports.model import Report

SOURCE_NAME: Final = "agentic-evals"
"""``source_metadata.source_name`` and ``eval_library.name`` of this tool's envelopes."""


def build_envelope(report: Report, org: str, instances_file: str, checksum: str) -> Envelope:
    """The aggregate envelope of ``report``, measured by ``org``.

    Args:
        report: The run report.
        org: ``source_metadata.source_organization_name``.
        instances_file: The instance JSONL's file name, beside the envelope.
        checksum: sha256 of the instance JSONL's bytes.
    """
    rows = report.metrics.trial_pass_rate.total
    return Envelope(
        schema_version=EEE_VERSION,
        evaluation_id=evaluation_id(report),
        evaluation_timestamp=epoch(started_at(report)),
        retrieved_timestamp=epoch(finished_at(report)),
        source_metadata=SourceMetadata(
            source_name=SOURCE_NAME,
            source_type="evaluation_run",
            source_organization_name=org,
            evaluator_relationship="first_party",
            additional_details=_run_details(report),
        ),
        eval_library=EvalLibrary(
            name=SOURCE_NAME, version=report.runner.version, additional_details=_hashes(report)
        ),
        model_info=ModelInfo(
            name=report.skill,
            id=model_id(report),
            additional_details={"subject_kind": "agent_skill", "eval_kind": report.eval_kind},
        ),
        evaluation_results=results(report),
        detailed_evaluation_results=DetailedResults(
            format="jsonl",
            file_path=instances_file,
            hash_algorithm="sha256",
            checksum=checksum,
            total_rows=rows,
        ),
    )


def _run_details(report: Report) -> dict[str, str]:
    counts = report.outcome_counts
    details = {
        "run_id": report.run_id,
        "started_at": iso(started_at(report)),
        "finished_at": iso(finished_at(report)),
        "readiness": report.readiness,
        "case_readiness": report.case_readiness,
        "exit_gate": "pass" if report.readiness == "READY" else "fail",
        "cases": str(report.case_count),
        "cases_required": str(report.required_case_count),
        **{f"cases_{outcome.lower()}": str(n) for outcome, n in sorted(counts.items())},
        "trials_per_case": str(report.trials_per_case),
        "trials_total": str(report.metrics.trial_pass_rate.total),
        "trials_passed": str(report.metrics.trial_pass_rate.passed),
        "report_schema": report.schema_,
    }
    if report.capability_readiness is not None:
        details["capability_readiness"] = report.capability_readiness.aggregate_readiness
    optional = {
        "shard": f"{report.shard.index}/{report.shard.total}" if report.shard else None,
        "focused_cases": json.dumps(report.focused_cases) if report.focused_cases else None,
        "interrupted": report.interrupted,
        "repo_sha": report.repo.sha if report.repo else None,
        "repo_ref": report.repo.ref if report.repo else None,
    }
    details.update({key: value for key, value in optional.items() if value is not None})
    return details


def _hashes(report: Report) -> dict[str, str]:
    cases = {
        case.case_id: {
            "test_source_sha256": case.test_source_sha256,
            "oracle_sha256": case.oracle_sha256,
        }
        for case in report.cases
    }
    details = {
        "fixture_path": report.source,
        "fixture_sha256": report.fixture_sha256,
        "case_hashes": json.dumps(cases, sort_keys=True, separators=(",", ":")),
    }
    # What each case's command ran, by hash: reports from before skill_files have none.
    files = {c.case_id: c.skill_files for c in report.cases if c.skill_files is not None}
    if files:
        details["skill_files"] = json.dumps(files, sort_keys=True, separators=(",", ":"))
    return details
