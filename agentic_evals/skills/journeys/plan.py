"""``plan-journeys``: read the four inputs, bind every requirement, and plan.

The plan proposes journeys and proves nothing: binding is not readiness. The
exit code follows ``summary.critical_bound``: every critical requirement is
BOUND (or NOT_APPLICABLE). A critical requirement that is PARTIALLY_BOUND is
a missing journey too: it cannot be driven end to end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals.contract.models import Fixture
from agentic_evals.documents.findings import Finding
from agentic_evals.skills.journeys.bind import bind_requirement, observe
from agentic_evals.skills.journeys.checks import reference_warnings, unobserved_warnings
from agentic_evals.skills.journeys.inputs import (
    InteractionInventory,
    RequirementsDocument,
    StateGraph,
)
from agentic_evals.skills.journeys.load import INVENTORY, REQUIREMENTS, STATE_GRAPH, load_input
from agentic_evals.skills.journeys.plan_models import (
    ClaimTrace,
    InputFile,
    InputRole,
    Journey,
    JourneyPlan,
    JourneyScaffold,
    MissingJourney,
    PlanSummary,
    ScaffoldCase,
    ScaffoldExpected,
)

DRIVER_PLACEHOLDER = "<journey-driver>"
"""The command of a scaffold case until someone names the real UI driver."""


class JourneyInputs(NamedTuple):
    """The four input files."""

    fixture: Path
    requirements: Path
    inventory: Path
    state_graph: Path


class PlanResult(NamedTuple):
    """A plan, or the errors that make the inputs invalid (exit 2)."""

    plan: JourneyPlan | None
    errors: list[Finding]


def _input(role: InputRole, path: Path, data: bytes) -> InputFile:
    return InputFile(role=role, path=str(path), sha256=hashlib.sha256(data).hexdigest())


def plan_journeys(inputs: JourneyInputs) -> PlanResult:
    """Load, check and bind; never raises for bad input."""
    from agentic_evals.contract.load import read_fixture

    loaded_fixture = read_fixture(inputs.fixture)
    requirements = load_input(inputs.requirements, REQUIREMENTS)
    inventory = load_input(inputs.inventory, INVENTORY)
    graph = load_input(inputs.state_graph, STATE_GRAPH)
    errors = [*loaded_fixture.errors, *requirements.findings, *inventory.findings]
    errors += graph.findings
    fixture = loaded_fixture.model
    if errors or fixture is None or requirements.model is None:
        return PlanResult(None, errors)
    if inventory.model is None or graph.model is None:
        return PlanResult(None, errors)
    warnings = [requirements.locate(f) for f in reference_warnings(requirements.model, fixture)]
    warnings += [graph.locate(f) for f in unobserved_warnings(graph.model, inventory.model)]
    files = [
        _input("fixture", inputs.fixture, loaded_fixture.source),
        _input("requirements", inputs.requirements, requirements.source),
        _input("interaction_inventory", inputs.inventory, inventory.source),
        _input("state_graph", inputs.state_graph, graph.source),
    ]
    plan = build_plan(fixture, requirements.model, inventory.model, graph.model, files, warnings)
    return PlanResult(plan, [])


def _journeys(
    fixture: Fixture,
    document: RequirementsDocument,
    inventory: InteractionInventory,
    graph: StateGraph,
) -> list[Journey]:
    claims = {claim.id for claim in fixture.capability_claims}
    seams = {seam.seam_id for seam in fixture.seams}
    observed = observe(inventory, graph)
    journeys: list[Journey] = []
    for requirement in document.requirements:
        binding = bind_requirement(requirement, observed)
        journeys.append(
            Journey(
                requirement_id=requirement.id,
                description=requirement.description,
                criticality=requirement.criticality,
                status=binding.status,
                not_applicable_reason=requirement.not_applicable_reason,
                claim_ids=[c for c in requirement.claim_ids if c in claims],
                unknown_claim_ids=[c for c in requirement.claim_ids if c not in claims],
                seam_ids=[s for s in requirement.seam_ids if s in seams],
                unknown_seam_ids=[s for s in requirement.seam_ids if s not in seams],
                steps=binding.steps,
                missing_qids=[step.qid for step in binding.steps if not step.bound],
                oracle_kinds=[oracle.kind for oracle in requirement.oracles],
                weak_oracle=binding.weak_oracle,
            )
        )
    return journeys


def _traces(fixture: Fixture, journeys: Sequence[Journey]) -> list[ClaimTrace]:
    return [
        ClaimTrace(
            claim_id=claim.id,
            criticality=claim.criticality,
            requirement_ids=[j.requirement_id for j in journeys if claim.id in j.claim_ids],
            bound_requirement_ids=[
                j.requirement_id
                for j in journeys
                if claim.id in j.claim_ids and j.status == "BOUND"
            ],
        )
        for claim in fixture.capability_claims
    ]


def build_plan(
    fixture: Fixture,
    document: RequirementsDocument,
    inventory: InteractionInventory,
    graph: StateGraph,
    files: list[InputFile],
    warnings: list[Finding],
) -> JourneyPlan:
    """Bind every requirement and assemble the plan (pure)."""
    journeys = _journeys(fixture, document, inventory, graph)
    traces = _traces(fixture, journeys)
    missing = [
        MissingJourney(
            requirement_id=j.requirement_id, status=j.status, missing_qids=j.missing_qids
        )
        for j in journeys
        if j.criticality == "critical" and j.status in ("UNBOUND", "PARTIALLY_BOUND")
    ]
    untraced = [t.claim_id for t in traces if t.criticality == "critical" and not t.requirement_ids]
    used = {step.qid for j in journeys for step in j.steps}
    observed = dict.fromkeys(control.qid for control in inventory.controls)
    weak = [j.requirement_id for j in journeys if j.weak_oracle]

    def count(status: str) -> int:
        return sum(1 for j in journeys if j.status == status)

    summary = PlanSummary(
        requirements=len(journeys),
        bound=count("BOUND"),
        partially_bound=count("PARTIALLY_BOUND"),
        unbound=count("UNBOUND"),
        not_applicable=count("NOT_APPLICABLE"),
        weak_oracles=len(weak),
        missing_critical_journeys=len(missing),
        untraced_critical_claims=len(untraced),
        critical_bound=not missing,
    )
    return JourneyPlan(
        skill=fixture.skill,
        inputs=files,
        journeys=journeys,
        weak_oracles=weak,
        claim_traceability=traces,
        untraced_critical_claims=untraced,
        missing_critical_journeys=missing,
        unlinked_controls=[qid for qid in observed if qid not in used],
        findings=warnings,
        summary=summary,
    )


def scaffold_fragment(plan: JourneyPlan) -> JourneyScaffold:
    """Candidate fixture cases for the BOUND journeys (never merged automatically)."""
    cases = [
        ScaffoldCase(
            name=f"journey-{journey.requirement_id}",
            type="positive",
            command=[DRIVER_PLACEHOLDER, journey.requirement_id],
            expected=ScaffoldExpected(exit_code=0),
            required=journey.criticality == "critical",
            supports_claims=journey.claim_ids,
            seams=journey.seam_ids,
            env={
                "AGENTIC_EVALS_JOURNEY": journey.requirement_id,
                "AGENTIC_EVALS_JOURNEY_QIDS": " ".join(step.qid for step in journey.steps),
            },
        )
        for journey in plan.journeys
        if journey.status == "BOUND"
    ]
    note = (
        "candidates for review, not evidence: replace the command with the UI driver that "
        "performs the steps (AGENTIC_EVALS_JOURNEY_QIDS, in order) and add oracles that read "
        "the outcome back before pasting these cases into the fixture"
    )
    return JourneyScaffold(note=note, skill=plan.skill, cases=cases)
