"""Checks across the inputs of ``plan-journeys`` that their models cannot express.

Errors (the input is invalid, exit 2): duplicate requirement or state ids, a
requirement marked not applicable without a reason, a transition or
``initial`` naming an undeclared state. Warnings (reported in the plan):
claim or seam ids the fixture does not declare, transitions on QIDs the
inventory did not observe.
"""

from __future__ import annotations

from collections.abc import Iterable

from agentic_evals import codes
from agentic_evals.contract.models import Fixture
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.skills.journeys.inputs import (
    InteractionInventory,
    RequirementsDocument,
    StateGraph,
)


def _duplicates(ids: Iterable[str], outer: str, key: str, label: str) -> list[Finding]:
    seen: set[str] = set()
    found: list[Finding] = []
    for index, value in enumerate(ids):
        if value in seen:
            message = f"duplicate {label} {value!r}"
            found.append(finding(codes.SCHEMA_DUPLICATE, [outer, index, key], message))
        seen.add(value)
    return found


def requirement_errors(document: RequirementsDocument) -> list[Finding]:
    """Duplicate ids, and NOT_APPLICABLE without a reason."""
    requirements = document.requirements
    found = _duplicates((r.id for r in requirements), "requirements", "id", "requirement id")
    for index, requirement in enumerate(requirements):
        if not requirement.applicable and not (requirement.not_applicable_reason or "").strip():
            message = (
                f"requirement {requirement.id!r} is not applicable but gives no "
                "not_applicable_reason"
            )
            found.append(finding(codes.SCHEMA_REQUIRED, ["requirements", index], message))
    return found


def graph_errors(graph: StateGraph) -> list[Finding]:
    """Duplicate state ids, and transitions or ``initial`` naming undeclared states."""
    found = _duplicates((s.id for s in graph.states), "states", "id", "state id")
    declared = {state.id for state in graph.states}
    if graph.initial is not None and graph.initial not in declared:
        message = f"initial state {graph.initial!r} is not a declared state"
        found.append(finding(codes.JOURNEY_REFERENCE, ["initial"], message))
    for index, transition in enumerate(graph.transitions):
        for key, state in (("from", transition.from_), ("to", transition.to)):
            if state not in declared:
                message = f"transition {key} {state!r}, which is not a declared state"
                parts: list[str | int] = ["transitions", index, key]
                found.append(finding(codes.JOURNEY_REFERENCE, parts, message))
    return found


def reference_warnings(document: RequirementsDocument, fixture: Fixture) -> list[Finding]:
    """Claim and seam ids that the fixture does not declare."""
    claims = {claim.id for claim in fixture.capability_claims}
    seams = {seam.seam_id for seam in fixture.seams}
    found: list[Finding] = []
    for index, requirement in enumerate(document.requirements):
        for key, known, code, what in (
            ("claim_ids", claims, codes.JOURNEY_UNKNOWN_CLAIM, "capability claim"),
            ("seam_ids", seams, codes.JOURNEY_UNKNOWN_SEAM, "seam"),
        ):
            for position, value in enumerate(getattr(requirement, key)):
                if value not in known:
                    message = (
                        f"requirement {requirement.id!r} names {what} {value!r}, which the "
                        "fixture does not declare"
                    )
                    parts: list[str | int] = ["requirements", index, key, position]
                    found.append(finding(code, parts, message, "warning"))
    return found


def unobserved_warnings(graph: StateGraph, inventory: InteractionInventory) -> list[Finding]:
    """Transitions on QIDs the interaction inventory did not observe."""
    observed = {control.qid for control in inventory.controls}
    return [
        finding(
            codes.JOURNEY_UNOBSERVED,
            ["transitions", index, "qid"],
            f"transition on {transition.qid!r}, which the interaction inventory did not observe",
            "warning",
        )
        for index, transition in enumerate(graph.transitions)
        if transition.qid not in observed
    ]
