"""What ``regressions show``, ``audit`` and ``verify`` write.

Output documents: every key is known (``extra="forbid"``).
"""

from typing import Final, Literal

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.regressions.models import Status

SHOW_SCHEMA: Final = "agentic_evals.regressions_show.v1"
AUDIT_SCHEMA: Final = "agentic_evals.regressions_audit.v1"
VERIFY_SCHEMA: Final = "agentic_evals.regressions_verify.v1"

Verdict = Literal["verified", "weak", "unproven", "skipped"]


class RegressionRow(OutputModel):
    """One regression as the audit sees it."""

    regression_id: str
    """The record's id."""
    status: Status
    """``ACTIVE``, ``EXEMPT`` or ``RETIRED``."""
    protected: bool
    """The retained fixture loads and still holds the retained case by name."""
    established_fail_before_fix: bool
    """A proof command exists and ``last_proven`` records when it last proved the guard."""
    stale_live_proof: bool
    """A live-class guard whose ``last_proven`` is older than the freshness window."""
    issues: list[str]
    """``CODE: detail`` for each problem (``UNPROTECTED``, ``NEVER_PROVEN``, ...)."""
    retained_case: str
    """The guard case's name."""
    retained_fixture: str
    """The guard's fixture, relative to the registry's folder."""
    last_proven: str | None
    """When the proof last proved the guard, as recorded."""


class UnmappedIncident(OutputModel):
    """An open incident that no regression maps."""

    id: str
    """The incident's id."""
    issue: str | None
    """Its tracker reference."""
    status: str | None
    """Its status as written (absent counts as open)."""
    summary: str | None
    """What happened."""


class RegressionSummary(OutputModel):
    """Counts over one registry (or, in ``audit``, over every registry of the tree)."""

    total: int
    """Records."""
    active: int
    """``ACTIVE`` records."""
    unprotected: int
    """``ACTIVE`` records whose retained case is missing, renamed or does not load."""
    never_proven_fail_before_fix: int
    """``ACTIVE`` records with no proof command or no ``last_proven`` (possibly vacuous)."""
    stale_live_proof: int
    """``ACTIVE`` live-class records proven longer ago than the freshness window."""
    retired: int
    """``RETIRED`` records."""
    exempt: int
    """``EXEMPT`` records."""
    unmapped_incidents: int
    """Open incidents that no regression maps."""


class RegressionsShow(OutputModel):
    """``regressions show SKILL_DIR``: one skill's registry, audited."""

    schema_: Literal["agentic_evals.regressions_show.v1"] = Field(SHOW_SCHEMA, alias="schema")
    """Output format."""
    skill: str
    """The skill folder's name."""
    registry: str
    """The registry's path as read."""
    as_of: str
    """Today's date (UTC), against which staleness was judged."""
    freshness_days: int
    """A live proof older than this many days is stale."""
    rows: list[RegressionRow]
    """One row per record, in registry order."""
    unmapped_incidents: list[UnmappedIncident]
    """Open incidents that no regression maps."""
    summary: RegressionSummary
    """The counts."""
    findings: list[Finding]
    """Load warnings (aliases, unknown keys)."""


class SkillRegressions(OutputModel):
    """One skill of an ``audit``: its registry audited, or why it could not be."""

    skill: str
    """The skill folder's name."""
    registry: str
    """The registry's path."""
    valid: bool
    """The registry loaded; when false, ``findings`` say why and nothing else is filled."""
    rows: list[RegressionRow]
    """One row per record."""
    unmapped_incidents: list[UnmappedIncident]
    """Open incidents that no regression maps."""
    summary: RegressionSummary | None
    """The counts; null when the registry is invalid."""
    findings: list[Finding]
    """Load errors and warnings."""


class SkippedRegistry(OutputModel):
    """A file that looks like a registry but is not an agentic-evals one."""

    skill: str
    """The skill folder's name."""
    path: str
    """The file."""
    reason: str
    """Why it was not audited."""


class RootSummary(OutputModel):
    """Counts over a whole tree."""

    skills: int
    """Skill folders with a ``fixtures/regressions.json``."""
    invalid: int
    """Registries that did not load."""
    skipped: int
    """Other registry-like files that were not audited."""
    regressions: RegressionSummary
    """The counts of every valid registry, added up."""


class RegressionsAudit(OutputModel):
    """``regressions audit ROOT``: every skill registry of a tree."""

    schema_: Literal["agentic_evals.regressions_audit.v1"] = Field(AUDIT_SCHEMA, alias="schema")
    """Output format."""
    root: str
    """The tree as given."""
    as_of: str
    """Today's date (UTC), against which staleness was judged."""
    freshness_days: int
    """A live proof older than this many days is stale."""
    skills: list[SkillRegressions]
    """Each skill with a registry, by folder name."""
    skipped: list[SkippedRegistry]
    """Files that are not agentic-evals registries."""
    summary: RootSummary
    """The counts over the tree."""


class GuardResult(OutputModel):
    """The retained case, run now: it must PASS (the fix holds)."""

    passed: bool
    """The retained case's outcome is PASS."""
    outcome: str | None
    """Its outcome (``PASS``, ``FAIL``, ``BLOCKED``, ``NOT_TESTED``); null when it did not run."""
    detail: str
    """Why it did not pass, or that it passed."""


class VerifyResult(OutputModel):
    """One record's proof, re-run."""

    regression_id: str
    """The record's id."""
    status: Status
    """The record's status; only ``ACTIVE`` records are run."""
    verdict: Verdict
    """``verified``, ``weak`` (nothing ties the failure to the guard), ``unproven``, ``skipped``."""
    fail_before_fix_verified: bool
    """The proof failed, and its output showed the failure code or every marker."""
    detail: str
    """Why, in words."""
    proof_exit_code: int | None
    """The proof's exit code; null when it timed out, could not start or did not run."""
    timed_out: bool
    """The proof hit its timeout and was killed."""
    markers_missing: list[str]
    """Expected markers the output did not show."""
    guard: GuardResult | None
    """With ``--guard``: the retained case, run now."""


class RegressionsVerify(OutputModel):
    """``regressions verify SKILL_DIR``: every ACTIVE proof re-run."""

    schema_: Literal["agentic_evals.regressions_verify.v1"] = Field(VERIFY_SCHEMA, alias="schema")
    """Output format."""
    skill: str
    """The skill folder's name."""
    registry: str
    """The registry's path as read."""
    as_of: str
    """Today's date (UTC); ``--write`` records it as ``last_proven``."""
    verified: list[str]
    """Records whose proof failed for the guard's reason (and, with ``--guard``, whose guard
    passes now)."""
    unproven: list[str]
    """ACTIVE records whose proof did not show the guard's reason (or whose guard fails)."""
    weak: list[str]
    """ACTIVE records with neither a failure code nor markers: a failure proves nothing."""
    skipped: list[str]
    """Records that are not ACTIVE."""
    written: list[str]
    """Records whose ``last_proven`` ``--write`` updated."""
    interrupted: str | None = None
    """The signal that stopped the run (``SIGINT``/``SIGTERM``), if any."""
    results: list[VerifyResult]
    """One result per record, in registry order."""
    findings: list[Finding]
    """Load warnings (aliases, unknown keys)."""
