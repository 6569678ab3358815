"""The documents ``plan-journeys`` reads: requirements, interaction inventory, state graph.

Requirements (``agentic_evals.requirements.v1``) are written by people: every
key is known (unknown keys are errors). The inventory and the state graph
are written by crawlers and may carry more keys, which are ignored. Controls
are named by QID everywhere: a stable id such as ``checkout.submit``, never
a CSS/XPath/text selector (``schemas/requirements.schema.json``).
"""

from typing import Annotated, Literal

from pydantic import Field

from agentic_evals.contract.vocabulary import Criticality
from agentic_evals.documents.base import InputModel
from agentic_evals.documents.schema_gen import SchemaSpec

QID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$"
"""A QID: letters, digits and ``_ . : -``, starting with a letter or digit."""
Qid = Annotated[str, Field(pattern=QID_PATTERN)]
NonEmptyStr = Annotated[str, Field(min_length=1)]
OracleKind = Literal["exit_code", "visible", "text", "value", "state", "url", "artifact"]
WEAK_ORACLE_KINDS: frozenset[str] = frozenset({"exit_code", "visible"})
"""Oracles that cannot tell a working journey from a broken one that still renders."""


class ControlRef(InputModel, extra="forbid"):
    """One step of a journey: a control, named by QID, and what to do with it."""

    qid: Qid
    """The control's stable id, as the interaction inventory observed it."""
    action: NonEmptyStr = "click"
    """What the journey does with it (``click``, ``fill``, ``select``...)."""
    to_state: NonEmptyStr | None = None
    """The state the step must lead to, by its id in the state graph."""


class JourneyOracle(InputModel, extra="forbid"):
    """A check that decides whether the journey worked."""

    kind: OracleKind
    """``exit_code`` and ``visible`` are weak; ``text``, ``value``, ``state``, ``url``,
    ``artifact`` read a result back."""
    qid: Qid | None = None
    """The control or element checked, by QID."""
    expect: str | None = None
    """The expected text, value, state id, URL or artifact path."""


class Requirement(InputModel, extra="forbid"):
    """Something the product must let a user do."""

    id: NonEmptyStr
    """Unique requirement id."""
    description: str = ""
    """The requirement in words."""
    criticality: Criticality = "critical"
    """``critical`` (default), ``important`` or ``optional``."""
    applicable: bool = True
    """``false``: not a UI journey here (NOT_APPLICABLE); ``not_applicable_reason`` says why."""
    not_applicable_reason: str | None = None
    """Why the requirement is not applicable (required when ``applicable`` is false)."""
    claim_ids: list[NonEmptyStr] = Field(default_factory=list)
    """Ids of the fixture's ``capability_claims`` this requirement traces to."""
    seam_ids: list[NonEmptyStr] = Field(default_factory=list)
    """``seam_id``s of the fixture's seams this requirement guards."""
    controls: list[ControlRef] = Field(default_factory=list)
    """The journey: the controls it needs, in order, by QID."""
    oracles: list[JourneyOracle] = Field(default_factory=list)
    """How the journey's outcome is checked."""


class RequirementsDocument(InputModel, extra="forbid"):
    """Requirements to bind to observed UI controls (``agentic_evals.requirements.v1``)."""

    schema_: Literal["agentic_evals.requirements.v1"] = Field(alias="schema")
    """Document kind and version."""
    skill: str | None = None
    """The skill or product the requirements are for."""
    requirements: Annotated[list[Requirement], Field(min_length=1)]
    """The requirements."""


class ObservedControl(InputModel):
    """A control the crawler saw."""

    qid: Qid
    """Its stable id."""
    role: str | None = None
    """ARIA role or tag."""
    label: str | None = None
    """Accessible name or visible label."""
    selector: str | None = None
    """How the crawler located it: recorded, never used for binding."""
    states: list[str] = Field(default_factory=list)
    """Ids of the states it was seen in."""


class InteractionInventory(InputModel):
    """Controls observed in the running product (``agentic_evals.interaction_inventory.v1``)."""

    schema_: Literal["agentic_evals.interaction_inventory.v1"] = Field(alias="schema")
    """Document kind and version."""
    run_id: str | None = None
    """The discovery run that observed them."""
    url: str | None = None
    """Where the discovery ran."""
    controls: list[ObservedControl]
    """The observed controls (a QID may repeat across states)."""


class GraphState(InputModel):
    """A UI state."""

    id: NonEmptyStr
    """Unique state id."""
    controls: list[Qid] = Field(default_factory=list)
    """QIDs available in this state."""


class Transition(InputModel):
    """Acting on a control moves the UI from one state to another."""

    from_: NonEmptyStr = Field(alias="from")
    """The state before."""
    to: NonEmptyStr
    """The state after."""
    qid: Qid
    """The control acted on."""
    action: NonEmptyStr = "click"
    """The action."""


class StateGraph(InputModel):
    """States and transitions by QID (``agentic_evals.state_graph.v1``)."""

    schema_: Literal["agentic_evals.state_graph.v1"] = Field(alias="schema")
    """Document kind and version."""
    initial: NonEmptyStr | None = None
    """The state a journey starts in."""
    states: list[GraphState]
    """The states."""
    transitions: list[Transition] = Field(default_factory=list)
    """The transitions."""


REQUIREMENTS_DOCUMENT = SchemaSpec(
    RequirementsDocument,
    "requirements.schema.json",
    "agentic-evals requirements (agentic_evals.requirements.v1)",
    "input",
)
INVENTORY_DOCUMENT = SchemaSpec(
    InteractionInventory,
    "interaction_inventory.schema.json",
    "agentic-evals interaction inventory (agentic_evals.interaction_inventory.v1)",
    "input",
)
STATE_GRAPH_DOCUMENT = SchemaSpec(
    StateGraph,
    "state_graph.schema.json",
    "agentic-evals state graph (agentic_evals.state_graph.v1)",
    "input",
)
