"""The run report, version ``agentic_evals.report.v2``.

``schemas/report.schema.json`` is generated from these models; a test pins
the field set of this version and fails when the schema drifts.
"""

from typing import Final, Literal

from pydantic import Field, JsonValue

from agentic_evals.contract.vocabulary import CaseType
from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.reports.model.claims import CapabilityReadiness, QualificationReport
from agentic_evals.reports.model.configuration import ConfigurationReport
from agentic_evals.reports.model.isolation import IsolationSummary
from agentic_evals.reports.model.metrics import Metrics
from agentic_evals.reports.model.outcomes import CaseOutcome, Readiness
from agentic_evals.reports.model.resume import ResumedFrom
from agentic_evals.reports.model.trial import Problem, TrialReport

REPORT_SCHEMA: Final = "agentic_evals.report.v2"


class CaseReport(OutputModel):
    """One case and its trials."""

    case_id: str
    """``<skill>::<name>``, stable across runs."""
    name: str
    """The case name."""
    type: CaseType
    """Case type."""
    required: bool
    """Counts for readiness."""
    outcome: CaseOutcome
    """Outcome over all trials."""
    flaky: bool
    """Trials disagreed, or passes relied on infrastructure-blocked trials."""
    problems: list[Problem]
    """Distinct problems over all trials."""
    argv: list[str]
    """The command, secrets redacted."""
    declared_evidence_class: str
    """Evidence class as declared (absent declares ``live_e2e``)."""
    effective_evidence_class: str
    """Evidence class after live qualification."""
    live_qualified: bool
    """A live declaration survived qualification."""
    evidence_disqualifiers: list[str]
    """Why a live declaration was downgraded."""
    supports_claims: list[str]
    """Claims this case supports."""
    seams: list[str]
    """Seams this case guards."""
    test_source_sha256: str
    """Hash of the canonical JSON of the case without ``expected``."""
    oracle_sha256: str
    """Hash of the canonical JSON of ``expected``."""
    passed_trials: int
    """Trials that passed."""
    total_trials: int
    """Trials that ran."""
    pass_rate: float | None
    """passed / total, null when no trial ran."""
    trials: list[TrialReport]
    """The trials, in order."""
    # Declared checks, for ``compare``; each is null in reports that predate it.
    expected: dict[str, JsonValue] | None = None
    """The case's ``expected`` as written (``oracle_sha256`` is its hash)."""
    must_exercise: list[str] | None = None
    """The case's declared ``must_exercise`` contracts."""
    blocked_when_stdout_contains: list[str] | None = None
    """Declared markers that make a trial BLOCKED."""
    infra_blocked_when: list[str] | None = None
    """Declared markers that make a failing trial INFRA_BLOCKED."""
    claims_sampling: bool | None = None
    """The case claims fresh inputs per run (compliance-tier sampling, or ``property_or_fuzz``):
    trials whose stdout and artifacts are all byte-identical fail it
    (``SAMPLING_NOT_OBSERVED``); null in reports that predate it."""
    skill_files: dict[str, str] | None = None
    """Skill-relative path to ``sha256:<hex>`` of each skill-tree file the command runs (its
    entrypoints, as the structural reading of the command resolves them)."""
    real_world: bool = False
    """The case declares ``real_world: true``."""
    vacuous_checks: list[str] = Field(default_factory=list)
    """Pointers in the fixture (``/cases/3/expected/artifacts/0``) of the case's checks that
    passed on the null trial of every trial (``VACUOUS_ORACLE``): they prove nothing
    (docs/evidence.md)."""
    weak: bool = False
    """No check of the case fails on the null trial: it fills no evidence slot."""
    reason_problem: str | None = None
    """For a negative or adversarial case that does not show its reason, why (in words)."""
    live_path_problem: str | None = None
    """For a ``real_world`` case: why its trials did not exercise a live path without stubs, in
    words (no trial traced or one untraceable, no substantive skill-tree file run, a stub
    opened, every check vacuous, or a reason read at load such as ``mocked``); null when they
    did, and for other cases. The anti-slop gate's real-world rule reads it after the run
    (``AE-SLOP-NO-REAL-WORLD``, docs/evidence.md)."""


class RepoInfo(OutputModel):
    """The git checkout the fixture lives in."""

    sha: str | None
    """Commit of HEAD."""
    ref: str | None
    """Branch or ref HEAD points at; null when detached."""


class RunnerInfo(OutputModel):
    """The tool that produced the report."""

    version: str
    """agentic-evals version."""


class ShardInfo(OutputModel):
    """Which slice of the fixture's cases a shard run covered."""

    index: int = Field(ge=1)
    """Counted from 1: the shard ran the cases at positions i where i % total == index - 1."""
    total: int = Field(ge=1)
    """How many shards the fixture's cases were split into."""


class FixtureCase(OutputModel):
    """A case of the fixture as the run found it, whether or not the run selected it."""

    name: str
    """The case name."""
    test_source_sha256: str
    """Its ``test_source_sha256``, as a case record of it would carry."""
    oracle_sha256: str
    """Its ``oracle_sha256``."""


class Report(OutputModel):
    """A run report."""

    schema_: Literal["agentic_evals.report.v2"] = Field(REPORT_SCHEMA, alias="schema")
    """Report format version."""
    source: str
    """The fixture path as given."""
    skill: str
    """The fixture's skill."""
    eval_kind: str
    """The fixture's eval kind."""
    run_id: str
    """Unique id of this run (also given to every trial as AGENTIC_EVALS_RUN_ID)."""
    fixture_sha256: str
    """sha256 of the fixture file's bytes."""
    repo: RepoInfo | None
    """Git provenance; null outside a git checkout."""
    runner: RunnerInfo
    """The tool's version."""
    live: bool | None
    """Declared by the fixture."""
    mocked: bool | None
    """Declared by the fixture."""
    proof_scope: str | None
    """Verbatim from the fixture."""
    claims: dict[str, JsonValue] | None
    """Proof-scope prose, verbatim from the fixture."""
    what_was_exercised: str | None
    """Verbatim from the fixture."""
    what_remains_unverified: str | None
    """Verbatim from the fixture."""
    readiness: Readiness
    """The gate: the worse of case and capability readiness."""
    case_readiness: Readiness
    """Readiness over required cases."""
    capability_readiness: CapabilityReadiness | None
    """Readiness per capability claim; null when no claims are declared."""
    claims_coverage: dict[str, list[str]]
    """Claim id to the names of the cases that support it."""
    focused_cases: list[str] | None
    """Cases selected with --case; null for a full run."""
    interrupted: str | None = None
    """Signal name when the run was interrupted (unfinished cases NOT_TESTED)."""
    qualification: QualificationReport | None = None
    """Cases by the highest qualification tier they passed at."""
    shard: ShardInfo | None = None
    """The shard this run covered (``--shard K/N``); null for a full, focused or merged run."""
    isolation: IsolationSummary | None = None
    """How the trials were isolated and contained, and what was not available."""
    configuration: ConfigurationReport | None = None
    """The resolved configuration of the run or merge; null when it was not recorded."""
    resumed_from: ResumedFrom | None = None
    """The report this run resumed (``run --resume``); null for a run that started afresh
    and for a merge."""
    trial_settings_sha256: str | None = None
    """sha256 of the canonical JSON of the fixture-level settings every trial runs under
    (today its ``workspace``); a resume re-runs every case when they changed."""
    fixture_cases: list[FixtureCase] | None = None
    """Every case of the fixture, in fixture order, with its hashes: a shard or focused run
    names what it skipped, and ``merge`` checks each shard against it; null in reports that
    predate it."""
    readiness_limit: str | None = None
    """Why this report can never be READY (a scaffold fixture, a focused or a shard run), in
    words; null when nothing limits it."""
    generated_at: str
    """ISO 8601 UTC time the report was written."""
    duration_ms: int
    """Wall time of the run."""
    trials_per_case: int
    """Trials per case."""
    case_count: int
    """Cases in the report."""
    required_case_count: int
    """Required cases in the report."""
    outcome_counts: dict[str, int]
    """Cases per outcome."""
    trial_count: int
    """Trials that ran."""
    warnings: list[Finding]
    """Load-time warnings."""
    evidence_findings: list[Finding] = Field(default_factory=list)
    """What the trials proved: every vacuous check (``VACUOUS_ORACLE``) and, for a skill
    without capability claims, what READY lacks (``AE-EVID-NONE``)."""
    metrics: Metrics
    """Aggregate figures."""
    cases: list[CaseReport]
    """The cases, in fixture order."""
