"""Output documents of the fleet tools: the skill-tree audit and the scaffold receipt.

These models are the source of ``schemas/skills_audit.schema.json`` and
``schemas/scaffold_receipt.schema.json`` (``scripts/gen_schemas.py``).
"""

from typing import Final, Literal, get_args

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.schema_gen import SchemaSpec

AUDIT_SCHEMA: Final = "agentic_evals.skills_audit.v1"
RECEIPT_SCHEMA: Final = "agentic_evals.scaffold_receipt.v1"

Posture = Literal[
    "eval_provider",
    "agentic_fixture",
    "legacy_eval_fixture",
    "delegates_to_eval_skill",
    "task_harness",
    "eval_not_required",
    "prose_only",
    "missing",
]
POSTURES: tuple[Posture, ...] = get_args(Posture)
Action = Literal[
    "fix_front_matter",
    "fix_fixture",
    "scaffold_fixture",
    "evaluate_prose_with_a_harness",
    "migrate_legacy_fixture",
    "strengthen_scaffold",
    "compose_agentic_evals",
    "none",
]
ACTIONS: tuple[Action, ...] = get_args(Action)


class SkillAudit(OutputModel):
    """The eval posture of one skill and what to do next."""

    skill: str
    """The skill's folder name."""
    eval_posture: Posture
    """How the skill is evaluated (README: posture detection rules)."""
    posture_evidence: str
    """The file or front-matter key the posture was read from."""
    recommended_action: Action
    """The next step, as a stable token."""
    recommended_detail: str
    """The next step, in words."""
    ready: bool
    """No error-severity finding."""
    runtime_surface: list[str]
    """Its programs (executables, ``*.py``, ``*.sh``, ``*.js``, ``*.ts``), ``scripts/`` first."""
    fixtures: list[str]
    """Agentic eval fixtures of the skill, relative to its folder: ``fixtures/agentic_eval*``,
    then those of the evals tree whose ``skill_root`` is the skill."""
    eval_findings: list[Finding]
    """This skill's findings."""


class AuditSummary(OutputModel):
    """Counts over the whole tree."""

    skills: int
    """Skill folders audited."""
    ready: int
    """Skills with no error-severity finding."""
    not_ready: int
    """Skills with at least one error-severity finding."""
    errors: int
    """Error-severity findings."""
    warnings: int
    """Warning-severity findings."""
    postures: dict[str, int]
    """Skills per posture (every posture, zeros included)."""
    rules: dict[str, int]
    """Findings per rule (every rule, zeros included)."""
    actions: dict[str, int]
    """Skills per recommended action (every action, zeros included)."""


class SkillsAudit(OutputModel):
    """``audit-skills ROOT``: the eval posture of every skill in a tree."""

    schema_: Literal["agentic_evals.skills_audit.v1"] = Field(AUDIT_SCHEMA, alias="schema")
    """Document kind and version."""
    root: str
    """The audited folder, as given."""
    skills: list[SkillAudit]
    """One entry per skill folder, by name."""
    findings: list[Finding]
    """Every finding, skill by skill."""
    summary: AuditSummary
    """Counts."""


class SkippedSkill(OutputModel):
    """A skill ``apply-scaffolds`` left alone, and why."""

    skill: str
    """The skill's folder name."""
    reason: str
    """Why no fixture was (or would be) written."""


class ScaffoldReceipt(OutputModel):
    """``apply-scaffolds ROOT``: what was (or would be) created, skipped and why."""

    schema_: Literal["agentic_evals.scaffold_receipt.v1"] = Field(RECEIPT_SCHEMA, alias="schema")
    """Document kind and version."""
    root: str
    """The skill tree, as given."""
    write: bool
    """``--write``: files were written; otherwise a dry run."""
    force: bool
    """``--force``: existing scaffold fixtures were replaced."""
    limit: int | None
    """``--limit``: at most this many fixtures; ``null`` when unlimited."""
    fixture_path: str
    """Where each fixture goes: relative to its skill folder, or
    ``<evals>/<skill>/agentic_eval.json`` in an evals tree."""
    created: list[str]
    """Skills whose fixture was written (empty in a dry run)."""
    overwritten: list[str]
    """Of ``created``, those whose existing scaffold fixture was replaced (``--force``)."""
    would_create: list[str]
    """Dry run: skills whose fixture ``--write`` would write."""
    skipped: list[SkippedSkill]
    """Skills left alone, with the reason."""
    failed: list[SkippedSkill]
    """Skills whose fixture could not be written, with the error."""


SKILLS_AUDIT_DOCUMENT = SchemaSpec(
    SkillsAudit,
    "skills_audit.schema.json",
    "agentic-evals skill-tree audit (agentic_evals.skills_audit.v1)",
    "output",
)
SCAFFOLD_RECEIPT_DOCUMENT = SchemaSpec(
    ScaffoldReceipt,
    "scaffold_receipt.schema.json",
    "agentic-evals scaffold receipt (agentic_evals.scaffold_receipt.v1)",
    "output",
)
