"""What a resumed run's report says of the report it continued (``run --resume``)."""

from agentic_evals.documents.base import OutputModel


class ResumedFrom(OutputModel):
    """The report a resumed run continued, and what it took from it."""

    path: str
    """The report as ``--resume`` named it."""
    run_id: str
    """Its run id."""
    report_sha256: str
    """sha256 of its bytes, as they were read."""
    runs: list[str]
    """Every run this report continues, oldest first: those the resumed report continued,
    then its own. The history keeps this run in their place (one run, not several)."""
    kept_trials: int
    """Trials taken from it unchanged, each marked ``reused``."""
    changed_cases: list[str]
    """Ids of the cases that had changed since it was written and ran again in full
    (``--resume-changed-cases``)."""
    retry_infra: bool
    """Its INFRA_BLOCKED trials ran again (``--retry-infra``)."""
