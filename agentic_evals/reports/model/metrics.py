"""The run's aggregate figures: trial pass rate, pass^k, flaky cases, hallucinated success."""

from agentic_evals.documents.base import OutputModel


class Interval(OutputModel):
    """A proportion with its Wilson 95% score interval."""

    passed: int
    """Successes."""
    total: int
    """Attempts."""
    rate: float | None
    """passed / total; null when total is 0."""
    wilson_low: float | None
    """Lower bound of the Wilson 95% interval."""
    wilson_high: float | None
    """Upper bound of the Wilson 95% interval."""


class PassHatK(OutputModel):
    """Chance that k fresh trials of a case all pass, estimated from n trials."""

    k: int
    """Trials per case."""
    value: float | None
    """C(passed, k) / C(n, k); null when the case did not run k trials."""


class HallucinatedSuccess(OutputModel):
    """Trials whose exit code and output oracles passed while a readback failed."""

    count: int
    """How many trials."""
    trial_ids: list[str]
    """Which trials."""


class Metrics(OutputModel):
    """Aggregate figures over the run."""

    trial_pass_rate: Interval
    """Share of executed trials that passed."""
    pass_hat_k: dict[str, PassHatK]
    """pass^k per case name."""
    flaky_cases: list[str]
    """Names of flaky cases."""
    hallucinated_success: HallucinatedSuccess
    """Trials that claimed success the artifacts contradict."""
