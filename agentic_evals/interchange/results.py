"""The results of an envelope: readiness, trial pass rate, critical claims, hallucinated success.

Each is one ``evaluation_results`` entry with a stable ``evaluation_result_id``
(``<skill>.<eval_kind>/<metric>``). Proportions carry their Wilson 95% interval
where they are rates over trials; a rate over no trials is left out, never
written as a number.
"""

from __future__ import annotations

import json
from typing import Final

from agentic_evals.interchange.eee_models import (
    ConfidenceInterval,
    EvaluationResult,
    MetricConfig,
    ScoreDetails,
    SourceData,
    Uncertainty,
)
from agentic_evals.interchange.identity import epoch, evaluation_name, started_at
from agentic_evals.judge.metrics import wilson_interval
from agentic_evals.reports.model import READINESS, Interval, Report

READINESS_LEVELS: Final = tuple(reversed(READINESS))
"""The readiness result's levels, worst first: its score is the index."""
_LEVEL_MEANINGS: Final = {
    "NOT_READY": "required cases failed, or a critical claim FAILED",
    "NOT_ESTABLISHED": "no required case was executed, or no claim could be established",
    "USABLE_WITH_GAPS": "some required case passed, but not every one, or a claim is unproven",
    "READY": "every required case passed every trial and every critical claim is PROVEN",
}


def results(report: Report) -> list[EvaluationResult]:
    """The envelope's results, each only when it has a value.

    In this order: readiness, trial pass rate, critical claims proven,
    hallucinated-success rate.
    """
    found = [_readiness(report)]
    trials = report.metrics.trial_pass_rate
    if trials.total:
        found.append(_pass_rate(report, trials))
    claims = report.capability_readiness
    if claims is not None and claims.critical_claim_count:
        found.append(_critical_claims(report))
    if trials.total:
        found.append(_hallucinated(report, trials.total))
    return found


def _source(report: Report) -> SourceData:
    return SourceData(
        dataset_name=evaluation_name(report),
        source_type="other",
        additional_details={
            "fixture_path": report.source,
            "fixture_sha256": report.fixture_sha256,
            "case_ids": json.dumps([case.case_id for case in report.cases]),
        },
    )


def _result(
    report: Report, metric: str, config: MetricConfig, score: ScoreDetails
) -> EvaluationResult:
    return EvaluationResult(
        evaluation_result_id=f"{evaluation_name(report)}/{metric}",
        evaluation_name=evaluation_name(report),
        source_data=_source(report),
        evaluation_timestamp=epoch(started_at(report)),
        metric_config=config,
        score_details=score,
    )


def _proportion(
    metric_id: str, name: str, description: str, *, lower_is_better: bool = False
) -> MetricConfig:
    return MetricConfig(
        evaluation_description=description,
        metric_id=metric_id,
        metric_name=name,
        metric_kind=metric_id.rsplit(".", 1)[-1],
        metric_unit="proportion",
        lower_is_better=lower_is_better,
        score_type="continuous",
        min_score=0,
        max_score=1,
    )


def _wilson(interval: Interval) -> Uncertainty:
    assert interval.wilson_low is not None and interval.wilson_high is not None
    return Uncertainty(
        confidence_interval=ConfidenceInterval(
            lower=interval.wilson_low,
            upper=interval.wilson_high,
            confidence_level=0.95,
            method="wilson",
        ),
        num_samples=interval.total,
    )


def _readiness(report: Report) -> EvaluationResult:
    config = MetricConfig(
        evaluation_description="The run's gate, from its required cases and capability claims.",
        metric_id="agentic-evals.readiness",
        metric_name="Readiness",
        metric_kind="readiness",
        lower_is_better=False,
        score_type="levels",
        level_names=list(READINESS_LEVELS),
        level_metadata=[_LEVEL_MEANINGS[level] for level in READINESS_LEVELS],
        has_unknown_level=False,
        min_score=0,
        max_score=len(READINESS_LEVELS) - 1,
    )
    details: dict[str, str] = {
        "readiness": report.readiness,
        "case_readiness": report.case_readiness,
    }
    score = ScoreDetails(score=READINESS_LEVELS.index(report.readiness), details=details)
    return _result(report, "readiness", config, score)


def _pass_rate(report: Report, trials: Interval) -> EvaluationResult:
    config = _proportion(
        "pass_rate",
        "Trial pass rate",
        "Share of executed trials that met every expectation of their case.",
    ).model_copy(
        update={
            "metric_parameters": {
                "cases": report.case_count,
                "trials_per_case": report.trials_per_case,
            },
            "additional_details": {"unit_of_analysis": "trial"},
        }
    )
    details = {
        "passed": str(trials.passed),
        "failed_or_blocked": str(trials.total - trials.passed),
        "total": str(trials.total),
    }
    assert trials.rate is not None
    score = ScoreDetails(score=trials.rate, details=details, uncertainty=_wilson(trials))
    return _result(report, "trial_pass_rate", config, score)


def _critical_claims(report: Report) -> EvaluationResult:
    claims = report.capability_readiness
    assert claims is not None
    config = _proportion(
        "agentic-evals.critical_claims_proven",
        "Critical claims proven",
        "Share of the fixture's critical capability claims whose every required evidence "
        "class is PROVEN.",
    )
    proven, total = claims.critical_claims_proven, claims.critical_claim_count
    details = {
        "proven": str(proven),
        "critical": str(total),
        "capability_readiness": claims.aggregate_readiness,
    }
    score = ScoreDetails(
        score=proven / total, details=details, uncertainty=Uncertainty(num_samples=total)
    )
    return _result(report, "critical_claims_proven", config, score)


def _hallucinated(report: Report, total: int) -> EvaluationResult:
    found = report.metrics.hallucinated_success
    config = _proportion(
        "agentic-evals.hallucinated_success_rate",
        "Hallucinated-success rate",
        "Share of executed trials whose exit code and output oracles passed while an artifact "
        "or readback oracle failed: success claimed that the artifacts contradict.",
        lower_is_better=True,
    )
    interval = wilson_interval(found.count, total)
    details = {
        "count": str(found.count),
        "total": str(total),
        "trial_ids": json.dumps(found.trial_ids),
    }
    assert interval.rate is not None
    score = ScoreDetails(score=interval.rate, details=details, uncertainty=_wilson(interval))
    return _result(report, "hallucinated_success_rate", config, score)
