"""Every Eval Ever 0.2.2 documents: the aggregate envelope and the instance record.

Written from the 0.2.2 format: what it requires is required here, the objects
it closes (the envelope, the instance record, ``generation_args``) forbid other
keys, and the others keep what they do not name (``extra="allow"``) so that an
envelope from another tool is read whole. ``additional_details`` maps hold
strings only, as the format says. Export writes these models with
``exclude_none``; import validates envelopes with them.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import ConfigDict, Field, JsonValue, model_validator

from agentic_evals.documents.base import InputModel

EEE_VERSION: Final = "0.2.2"
"""The Every Eval Ever version written and read."""
INSTANCE_VERSION: Final = "instance_level_eval_0.2.2"
"""The instance records' schema version."""

Details = dict[str, str]


class _Open(InputModel):
    """An object the format leaves open: what it does not name is kept."""


class _Closed(InputModel):
    """An object the format closes: no other key."""

    model_config = ConfigDict(extra="forbid")


class SourceMetadata(_Open):
    """Who measured, with what."""

    source_name: str | None = None
    source_type: Literal["documentation", "evaluation_run"]
    source_organization_name: str
    source_organization_url: str | None = None
    evaluator_relationship: Literal["first_party", "third_party", "collaborative", "other"]
    additional_details: Details | None = None


class EvalLibrary(_Open):
    """The evaluation tool."""

    name: str
    version: str
    additional_details: Details | None = None


class ModelInfo(_Open):
    """What was evaluated."""

    name: str
    id: str
    developer: str | None = None
    additional_details: Details | None = None


class SourceData(_Open):
    """Where the evaluation's samples come from."""

    dataset_name: str
    source_type: Literal["url", "hf_dataset", "other"]
    url: list[str] | None = Field(default=None, min_length=1)
    additional_details: Details | None = None

    @model_validator(mode="after")
    def _url_when_url(self) -> SourceData:
        if self.source_type == "url" and not self.url:
            raise ValueError("source_type url needs url")
        return self


class MetricConfig(_Open):
    """What a result measures and on which scale."""

    evaluation_description: str | None = None
    metric_id: str | None = None
    metric_name: str | None = None
    metric_kind: str | None = None
    metric_unit: str | None = None
    metric_parameters: dict[str, str | int | float | bool | None] | None = None
    lower_is_better: bool
    score_type: Literal["binary", "continuous", "levels"] | None = None
    level_names: list[str] | None = None
    level_metadata: list[str] | None = None
    has_unknown_level: bool | None = None
    min_score: float | None = None
    max_score: float | None = None
    additional_details: Details | None = None

    @model_validator(mode="after")
    def _scale(self) -> MetricConfig:
        if self.score_type == "levels" and (
            self.level_names is None or self.has_unknown_level is None
        ):
            raise ValueError("score_type levels needs level_names and has_unknown_level")
        if self.score_type == "continuous" and (self.min_score is None or self.max_score is None):
            raise ValueError("score_type continuous needs min_score and max_score")
        return self


class ConfidenceInterval(_Open):
    """Bounds at a confidence level."""

    lower: float
    upper: float
    confidence_level: float | None = Field(default=None, ge=0, le=1)
    method: str | None = None


class StandardError(_Open):
    """Standard error of the score."""

    value: float
    method: str | None = None


class Uncertainty(_Open):
    """How certain the score is."""

    standard_error: StandardError | None = None
    confidence_interval: ConfidenceInterval | None = None
    standard_deviation: float | None = None
    num_samples: int | None = None
    num_bootstrap_samples: int | None = None


class ScoreDetails(_Open):
    """The score."""

    score: float
    details: Details | None = None
    uncertainty: Uncertainty | None = None


class EvaluationResult(_Open):
    """One measured metric."""

    evaluation_result_id: str | None = None
    evaluation_name: str
    source_data: SourceData
    evaluation_timestamp: str | None = None
    metric_config: MetricConfig
    score_details: ScoreDetails
    generation_config: dict[str, JsonValue] | None = None


class DetailedResults(_Open):
    """Where the instance records are."""

    format: Literal["jsonl", "json"] | None = None
    file_path: str | None = None
    hash_algorithm: Literal["sha256", "md5"] | None = None
    checksum: str | None = None
    total_rows: int | None = None
    additional_details: Details | None = None


class Envelope(_Closed):
    """An aggregate Every Eval Ever envelope: one evaluation and its results."""

    schema_version: str
    evaluation_id: str
    evaluation_timestamp: str | None = None
    retrieved_timestamp: str
    source_metadata: SourceMetadata
    eval_library: EvalLibrary
    model_info: ModelInfo
    evaluation_results: list[EvaluationResult]
    detailed_evaluation_results: DetailedResults | None = None


class InstanceInput(_Open):
    """What the sample gave the subject."""

    raw: str
    formatted: str | None = None
    reference: list[str]
    choices: list[str] | None = None


class Message(_Open):
    """One turn of the transcript."""

    turn_idx: int = Field(ge=0)
    role: str
    content: str | None = None


class AnswerAttribution(_Open):
    """Where the judged answer came from."""

    turn_idx: int = Field(ge=0)
    source: str
    extracted_value: str
    extraction_method: str
    is_terminal: bool


class InstanceEvaluation(_Open):
    """The sample's score."""

    score: float
    is_correct: bool
    num_turns: int | None = Field(default=None, ge=1)
    tool_calls_count: int | None = Field(default=None, ge=0)


class Performance(_Open):
    """Timing of the sample."""

    latency_ms: float | None = Field(default=None, ge=0)
    additional_details: Details | None = None


class Instance(_Closed):
    """An instance-level record: one sample (for agentic-evals, one trial).

    Only written, never read: it models the fields an agentic record uses (no
    ``output`` or ``token_usage``, which an agentic record leaves null).
    """

    schema_version: str
    evaluation_id: str
    model_id: str
    evaluation_name: str
    evaluation_result_id: str | None = None
    sample_id: str
    sample_hash: str | None = None
    interaction_type: Literal["single_turn", "multi_turn", "agentic"]
    input: InstanceInput
    messages: list[Message] | None = None
    answer_attribution: list[AnswerAttribution]
    evaluation: InstanceEvaluation
    performance: Performance | None = None
    error: str | None = None
    metadata: Details | None = None
