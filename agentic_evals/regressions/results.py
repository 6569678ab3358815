"""What ``regressions show``, ``audit`` and ``verify`` write (SPEC section 8).

Output documents: every key is known (``extra="forbid"``).
"""

from typing import Final, Literal

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.schema_gen import SchemaSpec
from agentic_evals.regressions.models import ProofForm, Status, Verification
from agentic_evals.reports.model import Problem

SHOW_SCHEMA: Final = "agentic_evals.regressions_show.v1"
AUDIT_SCHEMA: Final = "agentic_evals.regressions_audit.v1"
VERIFY_SCHEMA: Final = "agentic_evals.regressions_verify.v1"

Verdict = Literal["verified", "weak", "unproven", "skipped"]
ProofState = Literal[
    "established", "never_proven", "weak", "unverified", "stale", "not_applicable", "unguarded"
]


class RegressionRow(OutputModel):
    """One regression as the audit sees it."""

    regression_id: str
    """The record's id."""
    status: Status
    """``ACTIVE``, ``EXEMPT`` or ``RETIRED`` as judged today (an expired exemption is ACTIVE)."""
    declared_status: Status
    """The status the record declares."""
    protected: bool
    """The retained fixture loads and still holds the retained case by name."""
    established_fail_before_fix: bool
    """A structural proof verified, as a verification record that matches the proof and the
    retained case now says (``proof_state`` is ``established``)."""
    proof: ProofForm | None
    """The proof's form: ``patch``, ``git_ref``, ``mutation``, ``proof_command`` (weak)."""
    proof_state: ProofState
    """``established``, or why not: ``never_proven``, ``weak``, ``unverified`` (a
    ``last_proven`` no verification backs), ``stale``, ``not_applicable``, ``unguarded``."""
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
    """``ACTIVE`` records whose fail-before-fix is not established (possibly vacuous)."""
    weak_proof: int
    """``ACTIVE`` records whose proof is a free-form ``proof_command``."""
    unverified_last_proven: int
    """``ACTIVE`` records with a ``last_proven`` that no verification record backs."""
    proof_stale: int
    """``ACTIVE`` records whose proof or retained case changed since it verified."""
    exemption_expired: int
    """Records whose exemption has expired (counted ``ACTIVE`` again)."""
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
    """The retained case, run on one tree."""

    passed: bool
    """The retained case's outcome is PASS."""
    outcome: str | None
    """Its outcome (``PASS``, ``FAIL``, ``BLOCKED``, ``NOT_TESTED``); null when it did not run."""
    detail: str
    """Why it did not pass, or that it passed."""
    tree: str | None = None
    """The skill tree it ran in."""
    problems: list[Problem] = []
    """The distinct problems of its trials, as its case report gives them."""


class ProofTrees(OutputModel):
    """The trees a structural proof ran the guard in."""

    broken: str | None
    """The private tree with the bug put back; null when it could not be made."""
    current: str
    """The skill tree as it is."""
    kept: bool
    """``--keep``: the broken tree was kept for inspection (else it was removed)."""


class VerifyResult(OutputModel):
    """One record's proof, re-run."""

    regression_id: str
    """The record's id."""
    status: Status
    """The record's status; only ``ACTIVE`` records are run."""
    verdict: Verdict
    """``verified``, ``weak`` (a free-form proof: its output is its own word), ``unproven``,
    ``skipped``."""
    reason_code: str | None = None
    """Why it is not verified (``PROOF_NOT_APPLICABLE``, ``GUARD_NOT_CAUGHT``, ...)."""
    proof: ProofForm | None = None
    """The proof's form."""
    fail_before_fix_verified: bool
    """On the broken tree the retained case FAILed with the failure code in every trial (for
    a ``proof_command``: it failed and its output showed the failure code or markers)."""
    pass_after_fix_verified: bool | None = None
    """On the current tree the retained case PASSed; null when it was not run."""
    detail: str
    """Why, in words."""
    problems: list[Problem] = []
    """The problems the retained case showed on the broken tree."""
    trees: ProofTrees | None = None
    """The trees used (structural proofs)."""
    broken_guard: GuardResult | None = None
    """The retained case on the broken tree (structural proofs)."""
    unprotected: bool = False
    """The guard does not catch the bug (it PASSed on the broken tree) or cannot run."""
    verification: Verification | None = None
    """When verified: the record ``--write`` stores (date, proof and case hashes)."""
    proof_exit_code: int | None
    """The proof's exit code; null when it timed out, could not start or did not run."""
    timed_out: bool
    """The proof hit its timeout and was killed."""
    markers_missing: list[str]
    """Expected markers the output did not show."""
    guard: GuardResult | None
    """The retained case on the current tree (always for a structural proof; for a
    ``proof_command`` with ``--guard``)."""


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
    """ACTIVE records whose proof is a free-form ``proof_command`` (at most weak)."""
    unprotected: list[str] = []
    """ACTIVE records whose guard does not catch the bug: it PASSed on the broken tree, or the
    retained case is not there."""
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


SHOW_DOCUMENT = SchemaSpec(
    RegressionsShow, "regressions_show.schema.json", "agentic-evals regressions show", "output"
)
AUDIT_DOCUMENT = SchemaSpec(
    RegressionsAudit, "regressions_audit.schema.json", "agentic-evals regressions audit", "output"
)
VERIFY_DOCUMENT = SchemaSpec(
    RegressionsVerify,
    "regressions_verify.schema.json",
    "agentic-evals regressions verify and add",
    "output",
)
