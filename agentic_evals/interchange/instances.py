"""The instance-level records of an export: one per executed trial, as JSON lines.

A trial is an agentic sample: the command ran (the transcript holds the
command line, already redacted in the report), its oracles judged what it left
behind, and the verdict is the trial's outcome. Each record points at the
trial pass rate result (``evaluation_result_id``). Captured output is not
exported: an envelope is evidence about a run, not a copy of it.
"""

from __future__ import annotations

import hashlib
import json
import shlex

from agentic_evals.interchange.eee_models import (
    INSTANCE_VERSION,
    AnswerAttribution,
    Instance,
    InstanceEvaluation,
    InstanceInput,
    Message,
    Performance,
)
from agentic_evals.interchange.identity import evaluation_id, evaluation_name, model_id
from agentic_evals.reports.model import CaseReport, Report, TrialReport


def instances(report: Report) -> list[Instance]:
    """One record per executed trial (NOT_TESTED trials measured nothing), in report order."""
    return [
        _instance(report, case, trial)
        for case in report.cases
        for trial in case.trials
        if trial.outcome != "NOT_TESTED"
    ]


def jsonl(records: list[Instance]) -> str:
    """The records as JSON lines (one compact object per line, each ending in a newline)."""
    return "".join(record.model_dump_json(exclude_none=True) + "\n" for record in records)


def _instance(report: Report, case: CaseReport, trial: TrialReport) -> Instance:
    command = shlex.join(case.argv)
    reference = [f"oracle_sha256:{case.oracle_sha256}"]
    passed = trial.outcome == "PASS"
    problems = "; ".join(f"{p.code}: {p.message}" for p in trial.problems)
    return Instance(
        schema_version=INSTANCE_VERSION,
        evaluation_id=evaluation_id(report),
        model_id=model_id(report),
        evaluation_name=evaluation_name(report),
        evaluation_result_id=f"{evaluation_name(report)}/trial_pass_rate",
        sample_id=trial.trial_id,
        sample_hash=hashlib.sha256("\n".join([command, *reference]).encode()).hexdigest(),
        interaction_type="agentic",
        input=InstanceInput(raw=command, reference=reference),
        messages=[Message(turn_idx=0, role="user", content=command)],
        answer_attribution=[
            AnswerAttribution(
                turn_idx=0,
                source="oracles",
                extracted_value=trial.outcome,
                extraction_method="agentic-evals oracles over exit code, output and artifacts",
                is_terminal=True,
            )
        ],
        evaluation=InstanceEvaluation(score=1.0 if passed else 0.0, is_correct=passed, num_turns=1),
        performance=Performance(latency_ms=trial.duration_ms),
        error=problems or None,
        metadata=_metadata(case, trial),
    )


def _metadata(case: CaseReport, trial: TrialReport) -> dict[str, str]:
    metadata = {
        "case_id": case.case_id,
        "case_type": case.type,
        "trial_outcome": trial.outcome,
        "exit_code": "none" if trial.exit_code is None else str(trial.exit_code),
        "timed_out": json.dumps(trial.timed_out),
        "test_source_sha256": case.test_source_sha256,
        "oracle_sha256": case.oracle_sha256,
        "effective_evidence_class": case.effective_evidence_class,
    }
    if trial.problems:
        metadata["problem_codes"] = json.dumps([problem.code for problem in trial.problems])
    return metadata
