"""The documents ``plan-journeys`` writes: the journey plan and the scaffold fragment."""

from typing import Final, Literal

from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.schema_gen import SchemaSpec

PLAN_SCHEMA: Final = "agentic_evals.journey_plan.v1"
SCAFFOLD_SCHEMA: Final = "agentic_evals.journey_scaffold.v1"

BindingStatus = Literal["BOUND", "PARTIALLY_BOUND", "UNBOUND", "NOT_APPLICABLE"]
InputRole = Literal["fixture", "requirements", "interaction_inventory", "state_graph"]


class InputFile(OutputModel):
    """An input the plan was built from, pinned by hash."""

    role: InputRole
    """Which input it is."""
    path: str
    """The path as given."""
    sha256: str
    """SHA-256 of its bytes (hex)."""


class StepBinding(OutputModel):
    """One step of a journey, bound to an observed control or not."""

    qid: str
    """The control's QID."""
    action: str
    """What the journey does with it."""
    to_state: str | None
    """The state the step must lead to, if the requirement says."""
    bound: bool
    """The inventory observed the QID (and the state graph has the transition to ``to_state``)."""
    reason: str | None
    """Why the step is not bound."""
    transitions: list[str]
    """State-graph transitions on this QID, as ``from -> to``."""


class Journey(OutputModel):
    """A requirement and the journey bound for it."""

    requirement_id: str
    """The requirement's id."""
    description: str
    """The requirement in words."""
    criticality: str
    """``critical``, ``important`` or ``optional``."""
    status: BindingStatus
    """BOUND: every step bound; PARTIALLY_BOUND: some; UNBOUND: none (or no step);
    NOT_APPLICABLE: the requirement says so."""
    not_applicable_reason: str | None
    """Why it is not applicable."""
    claim_ids: list[str]
    """Claim ids it traces to that the fixture declares."""
    unknown_claim_ids: list[str]
    """Claim ids it names that the fixture does not declare."""
    seam_ids: list[str]
    """Seam ids it names that the fixture declares."""
    unknown_seam_ids: list[str]
    """Seam ids it names that the fixture does not declare."""
    steps: list[StepBinding]
    """The steps, in order."""
    missing_qids: list[str]
    """QIDs of the steps that are not bound."""
    oracle_kinds: list[str]
    """The kinds of its oracles."""
    weak_oracle: bool
    """Its only checks are exit codes or visibility (or it has none)."""


class ClaimTrace(OutputModel):
    """Which requirements trace to one capability claim of the fixture."""

    claim_id: str
    """The claim id."""
    criticality: str
    """The claim's criticality."""
    requirement_ids: list[str]
    """Requirements naming it."""
    bound_requirement_ids: list[str]
    """Of those, the BOUND ones."""


class MissingJourney(OutputModel):
    """A critical requirement whose journey cannot be driven end to end."""

    requirement_id: str
    """The requirement's id."""
    status: BindingStatus
    """UNBOUND or PARTIALLY_BOUND."""
    missing_qids: list[str]
    """The QIDs that did not bind."""


class PlanSummary(OutputModel):
    """Counts, and the verdict the exit code follows."""

    requirements: int
    """Requirements planned."""
    bound: int
    """BOUND requirements."""
    partially_bound: int
    """PARTIALLY_BOUND requirements."""
    unbound: int
    """UNBOUND requirements."""
    not_applicable: int
    """NOT_APPLICABLE requirements."""
    weak_oracles: int
    """Applicable requirements whose journey has only weak oracles."""
    missing_critical_journeys: int
    """Critical requirements not BOUND (nor NOT_APPLICABLE)."""
    untraced_critical_claims: int
    """Critical claims of the fixture no requirement traces to."""
    critical_bound: bool
    """Every critical requirement is BOUND or NOT_APPLICABLE (exit 0)."""


class JourneyPlan(OutputModel):
    """``plan-journeys``: requirements bound to observed controls.

    Document ``agentic_evals.journey_plan.v1``. The plan proposes journeys; it
    proves nothing.
    """

    schema_: Literal["agentic_evals.journey_plan.v1"] = Field(PLAN_SCHEMA, alias="schema")
    """Document kind and version."""
    skill: str
    """The fixture's skill."""
    inputs: list[InputFile]
    """The four inputs, pinned by SHA-256."""
    journeys: list[Journey]
    """One per requirement, in document order."""
    weak_oracles: list[str]
    """Requirement ids whose journeys only check exit codes or visibility."""
    claim_traceability: list[ClaimTrace]
    """Per capability claim of the fixture: the requirements tracing to it."""
    untraced_critical_claims: list[str]
    """Critical claims no requirement traces to."""
    missing_critical_journeys: list[MissingJourney]
    """Critical requirements that are not BOUND."""
    unlinked_controls: list[str]
    """Observed QIDs no requirement uses (no claim is made up for them)."""
    findings: list[Finding]
    """Warnings about the inputs (unknown claim or seam ids, unobserved transitions)."""
    summary: PlanSummary
    """Counts."""


class ScaffoldExpected(OutputModel):
    """The one oracle a candidate case starts with."""

    exit_code: int
    """The driver's exit code when the journey succeeds."""


class ScaffoldCase(OutputModel):
    """A candidate fixture case for one BOUND journey (valid as a fixture case)."""

    name: str
    """``journey-<requirement id>``."""
    type: Literal["positive"]
    """Journeys are positive cases."""
    command: list[str]
    """A placeholder: the UI driver that performs the steps."""
    expected: ScaffoldExpected
    """Exit code only, until oracles that read the outcome back are added."""
    required: bool
    """Critical requirements are required cases."""
    supports_claims: list[str]
    """The requirement's claim ids that the fixture declares."""
    seams: list[str]
    """The requirement's seam ids that the fixture declares."""
    env: dict[str, str]
    """``AGENTIC_EVALS_JOURNEY`` (requirement id) and ``AGENTIC_EVALS_JOURNEY_QIDS``
    (the steps' QIDs, in order, space-separated) for the driver."""


class JourneyScaffold(OutputModel):
    """Candidate fixture cases for the BOUND journeys (``agentic_evals.journey_scaffold.v1``)."""

    schema_: Literal["agentic_evals.journey_scaffold.v1"] = Field(SCAFFOLD_SCHEMA, alias="schema")
    """Document kind and version."""
    note: str
    """What the fragment is, and is not."""
    skill: str
    """The fixture's skill."""
    cases: list[ScaffoldCase]
    """Fixture cases to review and paste into ``cases``; their command is a placeholder."""


JOURNEY_PLAN_DOCUMENT = SchemaSpec(
    JourneyPlan,
    "journey_plan.schema.json",
    "agentic-evals journey plan (agentic_evals.journey_plan.v1)",
    "output",
)
JOURNEY_SCAFFOLD_DOCUMENT = SchemaSpec(
    JourneyScaffold,
    "journey_scaffold.schema.json",
    "agentic-evals journey scaffold fragment (agentic_evals.journey_scaffold.v1)",
    "output",
)
