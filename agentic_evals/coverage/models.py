"""Output documents of the seam coverage audit (SPEC section 7).

``coverage show SKILL_DIR`` writes a :class:`CoverageReport`
(``agentic_evals.coverage.v1``); ``coverage audit ROOT`` writes a
:class:`CoverageAudit` (``agentic_evals.coverage_audit.v1``). These models are
the source of ``schemas/coverage.schema.json`` and
``schemas/coverage_audit.schema.json`` (``scripts/gen_schemas.py``).
"""

from typing import Final, Literal, get_args

from pydantic import Field

from agentic_evals.contract.vocabulary import Criticality
from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.schema_gen import SchemaSpec

COVERAGE_SCHEMA: Final = "agentic_evals.coverage.v1"
COVERAGE_AUDIT_SCHEMA: Final = "agentic_evals.coverage_audit.v1"

Verdict = Literal["READY", "NOT_READY", "NO_CRITICAL_SEAMS_DECLARED"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
GapKind = Literal["uncovered_seam", "missing_value_representation_seam"]


class WeakCase(OutputModel):
    """A case that lists a seam but cannot guard it."""

    case: str
    """Case reference (``name``, or ``file#name`` outside ``agentic_eval.json``)."""
    effective_evidence_class: str
    """Its evidence class after live qualification."""
    reasons: list[str]
    """``NO_FAILING_ORACLE`` (nothing but ``exit_code: 0``) and/or ``NOT_REQUIRED_CASE``."""


class RegressionEvidence(OutputModel):
    """An incident regression at a seam, with the verdict ``regressions show`` gives it."""

    regression_id: str
    """The record's id."""
    status: str
    """``ACTIVE`` or ``EXEMPT`` today (an expired exemption is ``ACTIVE``)."""
    established_fail_before_fix: bool
    """Its guard is proven to catch the bug (a verified structural proof that still matches)."""
    proof_state: str | None
    """``established``, or why not (``weak``, ``unverified``, ``stale``, ...); null when the
    registry did not load."""


class SeamCoverage(OutputModel):
    """One declared seam: who guards it, in which evidence classes, and what is missing."""

    seam_id: str
    """The seam id."""
    seam_type: str
    """Its ``seam_type`` as written (``""`` when absent)."""
    criticality: str
    """Its ``criticality`` as written (absent means ``critical``)."""
    effective_criticality: Criticality
    """The tier the verdict uses (``high`` counts as ``critical``; README)."""
    claim_id: str | None
    """The claim the seam belongs to."""
    declared_in: list[str]
    """Fixture files that declare it."""
    required_evidence: list[str]
    """Classes in each of which a capable case must exist."""
    covered: bool
    """A capable case exists in every required class."""
    weak_only: bool
    """Cases list the seam, but none of them can fail: they cannot detect a regression."""
    present_evidence: list[str]
    """Effective classes of the capable covering cases."""
    missing_evidence: list[str]
    """Required classes with no capable case."""
    covering_cases: list[str]
    """Capable cases (required, with an oracle that can fail) that list the seam."""
    weak_cases: list[WeakCase]
    """Cases that list the seam but cannot guard it, and why."""
    unqualified_live_cases: list[str]
    """Cases listing the seam that declared a live class and were downgraded."""
    has_live_coverage: bool
    """A capable covering case is live after qualification."""
    incident_regressions: list[str]
    """Ids of the registry's regressions (not RETIRED) whose seam ids name this seam."""
    regression_evidence: list[RegressionEvidence]
    """The same regressions, each with whether its fail-before-fix is established."""


class CoverageGap(OutputModel):
    """A place where a regression could enter unguarded, ranked (1 is the most urgent)."""

    rank: int
    """Position in the prioritized list, from 1."""
    kind: GapKind
    """``uncovered_seam`` or ``missing_value_representation_seam``."""
    seam_id: str | None
    """The uncovered seam (``null`` for a seam that is not declared at all)."""
    claim_id: str | None
    """The claim concerned."""
    effective_criticality: Criticality
    """The tier that ranks the gap."""
    missing_evidence: list[str]
    """Classes with no capable guard."""
    weak_only: bool
    """Only cases that cannot fail list the seam."""
    incident_regressions: list[str]
    """Incidents already recorded at this seam."""
    detail: str
    """The gap in words."""


class CoverageSummary(OutputModel):
    """The counts and the verdict of one skill."""

    verdict: Verdict
    """``READY`` iff every critical seam is covered and no critical gap remains."""
    fixtures: int
    """Fixture files unioned."""
    fixtures_not_loading: int
    """Of those, files the loader rejects (analysed as written, with a finding)."""
    cases: int
    """Cases read from all fixtures."""
    seams: int
    """Declared seams."""
    critical_seams: int
    """Seams whose effective criticality is ``critical``."""
    covered: int
    """Covered seams."""
    critical_covered: int
    """Covered critical seams."""
    weak_only: int
    """Seams listed only by cases that cannot fail."""
    uncovered: int
    """Seams not covered (weak-only ones included)."""
    live_covered: int
    """Seams with a capable live case."""
    gaps: int
    """Prioritized gaps."""
    critical_gaps: int
    """Gaps of critical tier."""
    undeclared_seam_ids: list[str]
    """Seam ids that cases list but no fixture declares."""
    unestablished_regressions: int
    """ACTIVE incident regressions at declared seams whose fail-before-fix is not established."""
    errors: int
    """Error findings."""
    warnings: int
    """Warning findings."""
    infos: int
    """Info findings."""


class CoverageReport(OutputModel):
    """``coverage show SKILL_DIR``: static seam coverage of one skill."""

    schema_: Literal["agentic_evals.coverage.v1"] = Field(COVERAGE_SCHEMA, alias="schema")
    """Document kind and version."""
    skill: str
    """The skill's name (the primary fixture's ``skill``, else the folder name)."""
    skill_dir: str
    """The skill folder, as given."""
    fixtures: list[str]
    """Fixture files unioned, relative to the skill folder."""
    registry: str | None
    """The regressions registry read, relative to the skill folder (``null``: none)."""
    seams: list[SeamCoverage]
    """One entry per declared seam, in declaration order."""
    prioritized_gaps: list[CoverageGap]
    """Gaps, critical first, most missing classes first."""
    summary: CoverageSummary
    """Counts and verdict."""
    findings: list[Finding]
    """Everything noticed on the way, errors first."""


class SkillCoverage(OutputModel):
    """One skill in a ``coverage audit``."""

    skill: str
    """The skill's folder name."""
    fixtures: list[str]
    """Fixture files unioned."""
    summary: CoverageSummary
    """Its counts and verdict."""
    prioritized_gaps: list[CoverageGap]
    """Its gaps, most urgent first."""
    findings: list[Finding]
    """Its findings."""


class CoverageAuditSummary(OutputModel):
    """Counts over the whole tree."""

    skills: int
    """Skill folders audited (those with fixtures)."""
    verdicts: dict[str, int]
    """Skills per verdict (every verdict, zeros included)."""
    not_ready: list[str]
    """Skills whose verdict is ``NOT_READY``."""
    seams: int
    """Declared seams over all skills."""
    covered: int
    """Covered seams over all skills."""
    weak_only: int
    """Weak-only seams over all skills."""
    gaps: int
    """Gaps over all skills."""
    critical_gaps: int
    """Critical gaps over all skills."""
    undeclared_seam_ids: int
    """Undeclared seam ids over all skills."""


class CoverageAudit(OutputModel):
    """``coverage audit ROOT``: seam coverage of every skill folder with fixtures."""

    schema_: Literal["agentic_evals.coverage_audit.v1"] = Field(
        COVERAGE_AUDIT_SCHEMA, alias="schema"
    )
    """Document kind and version."""
    root: str
    """The audited folder, as given."""
    skills: list[SkillCoverage]
    """One entry per skill folder with fixtures, by name."""
    skipped: list[str]
    """Immediate subfolders without ``fixtures/agentic_eval*`` files."""
    summary: CoverageAuditSummary
    """Counts."""


COVERAGE_DOCUMENT = SchemaSpec(
    CoverageReport,
    "coverage.schema.json",
    "agentic-evals seam coverage of a skill (agentic_evals.coverage.v1)",
    "output",
)
COVERAGE_AUDIT_DOCUMENT = SchemaSpec(
    CoverageAudit,
    "coverage_audit.schema.json",
    "agentic-evals seam coverage of a skill tree (agentic_evals.coverage_audit.v1)",
    "output",
)
