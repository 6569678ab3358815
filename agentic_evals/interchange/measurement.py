"""What an envelope measured, as one hash: the key of deduplication and of conflicts.

Two envelopes under one ``evaluation_id`` are the same measurement when every
result has the same score on the same scale with the same sample size and
interval. What describes the export rather than the measurement (the exporting
tool's version, the organisation, timestamps, free-text details) is left out, so
exporting a run twice, or from another machine, is still the same measurement.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_evals.interchange.eee_models import EvaluationResult
from agentic_evals.judge.provenance import canonical_json, sha256_bytes


class MeasurementError(ValueError):
    """An envelope whose results cannot be told apart (one result key listed twice)."""


def result_key(result: EvaluationResult) -> str:
    """The result's stable id: ``evaluation_result_id``, else name and metric."""
    if result.evaluation_result_id:
        return result.evaluation_result_id
    metric = result.metric_config.metric_id or result.metric_config.metric_name or ""
    return f"{result.evaluation_name}/{metric}"


def _measured(result: EvaluationResult) -> dict[str, object]:
    config, score = result.metric_config, result.score_details
    uncertainty = score.uncertainty
    interval = uncertainty.confidence_interval if uncertainty else None
    return {
        "score": score.score,
        "score_type": config.score_type,
        "scale": [config.min_score, config.max_score, config.lower_is_better, config.level_names],
        "num_samples": uncertainty.num_samples if uncertainty else None,
        "interval": (
            [interval.lower, interval.upper, interval.confidence_level] if interval else None
        ),
        "standard_error": (
            uncertainty.standard_error.value if uncertainty and uncertainty.standard_error else None
        ),
        "standard_deviation": uncertainty.standard_deviation if uncertainty else None,
    }


def measurement_sha256(results: Sequence[EvaluationResult]) -> str:
    """sha256 over every result's key and measured values (an envelope's ``evaluation_results``).

    Raises:
        MeasurementError: Two results share a key, so which one a later envelope
            changed could not be told.
    """
    measured: dict[str, object] = {}
    for result in results:
        key = result_key(result)
        if key in measured:
            raise MeasurementError(f"result {key!r} is listed twice: its measurement is ambiguous")
        measured[key] = _measured(result)
    return sha256_bytes(canonical_json(measured))
