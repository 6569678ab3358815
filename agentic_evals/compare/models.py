"""The output of ``compare`` (``agentic_evals.compare.v1``); ``schemas/compare.schema.json``."""

from typing import Final, Literal, get_args

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.schema_gen import SchemaSpec

COMPARE_SCHEMA: Final = "agentic_evals.compare.v1"
CaseClass = Literal[
    "regressed", "fixed", "new_flaky", "weakened", "strengthened", "added", "removed", "unchanged"
]
CLASSES: Final[tuple[CaseClass, ...]] = get_args(CaseClass)
"""The classes of a case across two runs, in the order they are listed."""
Direction = Literal["better", "worse", "same"]


class Change(OutputModel):
    """One way a case or claim checks less (or more) in HEAD than in BASE."""

    kind: str
    """Stable code, e.g. ``ORACLE_REMOVED``, ``ORACLE_LOOSENED``, ``CRITICALITY_LOWERED``."""
    check: str
    """What changed, e.g. ``stdout_contains`` or ``artifacts[out/r.json].json_equals``."""
    detail: str
    """In words: before and after."""


class Side(OutputModel):
    """One of the two reports."""

    source: str
    """Where the report was read from (a file, later a run id)."""
    run_id: str
    """The report's run id."""
    skill: str
    """The fixture's skill."""
    fixture_sha256: str
    """sha256 of the fixture's bytes."""
    readiness: str
    """The report's gate."""


class CaseDelta(OutputModel):
    """One case id, paired across the two reports."""

    case_id: str
    """``<skill>::<name>``."""
    classes: list[CaseClass]
    """Every class that applies (``unchanged`` only when none other does)."""
    base_outcome: str | None
    """Outcome in BASE; null when added."""
    head_outcome: str | None
    """Outcome in HEAD; null when removed."""
    weakened: list[Change]
    """How HEAD checks less."""
    strengthened: list[Change]
    """How HEAD checks more."""


class ReadinessDelta(OutputModel):
    """The gate of each report."""

    base: str
    """BASE readiness."""
    head: str
    """HEAD readiness."""
    change: Direction
    """``worse`` when HEAD's readiness ranks lower."""


class ClaimDelta(OutputModel):
    """One capability claim across the two reports."""

    id: str
    """The claim id."""
    base_verdict: str | None
    """Verdict in BASE; null when the claim is new."""
    head_verdict: str | None
    """Verdict in HEAD; null when the claim was removed."""
    change: Direction
    """How the verdict moved."""
    weakened: list[Change]
    """Lowered criticality or evidence, cases removed from it, the claim removed."""
    strengthened: list[Change]
    """The opposite."""


class SkillFileChange(OutputModel):
    """A skill-tree file some case runs whose hash differs between the reports."""

    path: str
    """Skill-relative path."""
    base: str | None
    """``sha256:<hex>`` in BASE; null when no BASE case ran it."""
    head: str | None
    """``sha256:<hex>`` in HEAD; null when no HEAD case runs it."""
    cases: list[str]
    """Case ids that run it (in either report)."""


class Comparison(OutputModel):
    """``compare BASE HEAD``: the classes, the deltas, and the verdict."""

    schema_: Literal["agentic_evals.compare.v1"] = Field(COMPARE_SCHEMA, alias="schema")
    """Output format."""
    base: Side
    """The earlier report."""
    head: Side
    """The later report."""
    regressed: list[str]
    """Case ids that passed in BASE and do not in HEAD."""
    fixed: list[str]
    """Case ids that did not pass in BASE and pass in HEAD."""
    new_flaky: list[str]
    """Case ids flaky in HEAD and not in BASE."""
    weakened: list[str]
    """Case ids that check less in HEAD (see ``cases[].weakened``)."""
    strengthened: list[str]
    """Case ids that check more in HEAD."""
    added: list[str]
    """Case ids only in HEAD."""
    removed: list[str]
    """Case ids only in BASE."""
    unchanged: list[str]
    """Case ids in none of the classes above."""
    readiness: ReadinessDelta
    """The gate, before and after."""
    claims: list[ClaimDelta]
    """Every claim of either report."""
    weakened_claims: list[str]
    """Claim ids that ask for less in HEAD."""
    strengthened_claims: list[str]
    """Claim ids that ask for more in HEAD."""
    regressed_claims: list[str]
    """Claim ids whose verdict got worse."""
    skill_files_changed: list[SkillFileChange]
    """Skill files whose hash changed."""
    cases: list[CaseDelta]
    """Every case id, BASE order then HEAD's new ones."""
    gate_failed: bool
    """A regression or a weakening: ``compare`` exits 1 (0 with ``--report-only``)."""


COMPARE_DOCUMENT = SchemaSpec(
    Comparison,
    "compare.schema.json",
    "agentic-evals comparison of two runs (agentic_evals.compare.v1)",
    "output",
)
