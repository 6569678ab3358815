"""The documents the ``history`` commands print and write with ``-o``.

``schemas/history_*.schema.json`` are generated from these models. Times are
the history's sortable UTC form (``2026-12-01T20:00:05.000000Z``).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.schema_gen import SchemaSpec


class RunSummary(OutputModel):
    """One recorded run."""

    run_id: str
    """The report's run id."""
    skill: str
    """The fixture's skill."""
    eval_kind: str
    """The fixture's eval kind."""
    source: str
    """The fixture path as the run was given it."""
    fixture_sha256: str
    """sha256 of the fixture file."""
    generated_at: str
    """When the report was written (UTC)."""
    readiness: str
    """The run's gate."""
    case_readiness: str
    """Readiness over required cases."""
    shard: str | None
    """``K/N`` for a shard run; null otherwise."""
    focused: bool
    """The run covered only the cases named with ``--case``."""
    interrupted: str | None
    """The signal that interrupted the run, if any."""
    resumed_from: str | None = None
    """The run this run resumed (``run --resume``); it took that run's place."""
    case_count: int
    """Cases in the report."""
    trial_count: int
    """Executed trials."""
    passed_trials: int
    """Trials that passed."""
    duration_ms: int
    """Wall time of the run."""
    runner_version: str
    """The agentic-evals version that ran it."""
    repo_sha: str | None
    """Git commit of the fixture's checkout."""
    repo_ref: str | None
    """Git ref of the fixture's checkout."""


class HistoryList(OutputModel):
    """``history list``: the most recent runs first."""

    runs: list[RunSummary]
    """The runs, newest first."""


class CaseRow(OutputModel):
    """One case of a recorded run."""

    case_id: str
    """``<skill>::<name>``."""
    name: str
    """The case name."""
    outcome: str
    """The case's outcome in that run."""
    required: bool
    """The case counted for readiness."""
    flaky: bool
    """Its trials disagreed within the run."""
    passed_trials: int
    """Trials that passed."""
    total_trials: int
    """Trials that ran."""
    test_source_sha256: str
    """Hash of the case without ``expected``."""
    oracle_sha256: str
    """Hash of the case's ``expected``."""
    skill_files: dict[str, str] = Field(default_factory=dict)
    """Skill-relative path to ``sha256:<hex>`` of the skill files the case runs (empty when
    the report has none)."""


class ClaimRow(OutputModel):
    """One capability claim of a recorded run."""

    claim_id: str
    """The claim id."""
    criticality: str
    """``critical``, ``important`` or ``optional``."""
    verdict: str
    """The claim's verdict in that run."""
    case_ids: list[str]
    """Its supporting cases, by case id."""


class RunDetail(OutputModel):
    """``history show RUN``: one run with its cases and claims."""

    run: RunSummary
    """The run."""
    cases: list[CaseRow]
    """Its cases, by case id."""
    claims: list[ClaimRow]
    """Its claims, by claim id."""


class TrendPoint(OutputModel):
    """A case or claim in one run."""

    run_id: str
    """The run."""
    generated_at: str
    """When its report was written."""
    outcome: str
    """The case's outcome, or the claim's verdict."""
    passed: int
    """Passed trials (of the claim's supporting cases, for a claim)."""
    total: int
    """Executed trials."""
    rate: float | None
    """passed / total; null when no trial ran."""
    wilson_low: float | None
    """Lower bound of the Wilson 95% interval."""
    wilson_high: float | None
    """Upper bound of the Wilson 95% interval."""
    hashes_changed: list[str]
    """What changed since the previous point: ``test_source``, ``oracle`` or ``skill_files``
    (for a claim, ``<case_id>: <hash>`` per supporting case, and ``cases`` when the
    supporting cases changed)."""


class Trend(OutputModel):
    """``history trend CASE_ID | CLAIM_ID``: oldest first."""

    target: str
    """The case id or claim id asked for."""
    kind: Literal["case", "claim"]
    """Whether the target is a case or a claim."""
    points: list[TrendPoint]
    """One point per run that recorded the target."""


class FlakyCase(OutputModel):
    """A case whose outcome changed between runs while its hashes stayed the same."""

    case_id: str
    """The case."""
    skill: str
    """The skill of its latest run."""
    runs: int
    """Runs in the window that decided the case (PASS or FAIL)."""
    flips: int
    """Consecutive such runs with equal hashes and different outcomes."""
    passes: int
    """Runs in the window where the case passed."""
    failures: int
    """Runs in the window where the case failed."""
    flipped_in: list[str]
    """The run ids whose outcome differed from the run before."""
    last_outcome: str
    """The case's outcome in its latest decided run."""
    test_source_sha256: str
    """The test hash of its latest decided run."""
    oracle_sha256: str
    """The oracle hash of its latest decided run."""
    skill_files_sha256: str
    """One hash over the skill-file map of its latest decided run."""


class FlakyList(OutputModel):
    """``history flaky``: the most flips first."""

    flaky: list[FlakyCase]
    """The flaky cases."""


class PruneReceipt(OutputModel):
    """``history prune --keep N``."""

    keep: int
    """Runs asked to keep."""
    kept: int
    """Runs left in the history."""
    removed: list[str]
    """Run ids removed (their report files are not touched)."""


class ReportImport(OutputModel):
    """One report given to ``history import``."""

    path: str
    """The file, as given."""
    run_id: str | None
    """Its run id; null when it could not be read."""
    status: Literal["recorded", "already_recorded", "conflict", "superseded", "invalid"]
    """What happened to it."""
    message: str | None
    """Why it was not recorded, when it was not."""


class ReportImportReceipt(OutputModel):
    """``history import REPORT...``."""

    reports: list[ReportImport]
    """One entry per file, in the order given."""
    recorded: int
    """Reports newly recorded."""
    already_recorded: int
    """Reports whose run was already recorded with the same content."""
    conflicts: int
    """Reports whose run id is recorded with different content (not replaced)."""
    superseded: int
    """Reports of runs a recorded resumed run took the place of (not recorded)."""
    invalid: int
    """Files that are not reports the history can index."""


class ImportedSummary(OutputModel):
    """An Every Eval Ever result imported from another tool."""

    evaluation_id: str
    """The envelope's evaluation id."""
    source_name: str | None
    """The tool or platform that produced it."""
    source_organization_name: str
    """Who measured it."""
    evaluator_relationship: str
    """``first_party``, ``third_party``, ``collaborative`` or ``other``, as declared."""
    model_id: str
    """What was evaluated."""
    evaluation_timestamp: str | None
    """When it was evaluated, as the envelope says."""
    result_count: int
    """Results in the envelope."""
    imported_from: str
    """The file it was imported from."""
    imported_at: str
    """When it was imported (UTC)."""


class ImportedList(OutputModel):
    """``history imported``: imported results, the most recently imported first."""

    imported: list[ImportedSummary]
    """The imported results."""


_TITLE: Final = "agentic-evals history"
HISTORY_DOCUMENTS: Final[dict[str, SchemaSpec]] = {
    name: SchemaSpec(model, f"history_{name}.schema.json", f"{_TITLE} {name}", "output")
    for name, model in (
        ("list", HistoryList), ("show", RunDetail), ("trend", Trend), ("flaky", FlakyList),
        ("prune", PruneReceipt), ("import", ReportImportReceipt), ("imported", ImportedList),
    )
}  # fmt: skip
"""The schema of each ``history`` command's document, by the command's name."""
