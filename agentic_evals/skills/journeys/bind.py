"""Bind each requirement's journey to observed controls, by QID only (pure).

A step is bound when the interaction inventory observed its QID (exact
match; selectors recorded by the crawler are never consulted) and, when the
step names a ``to_state``, the state graph has a transition on that QID into
that state. A requirement is NOT_APPLICABLE when it says so, BOUND when every
step is bound, PARTIALLY_BOUND when some are, UNBOUND when none are or it
names no control. Its oracle is weak when it has no oracle or only
``exit_code``/``visible`` ones.
"""

from __future__ import annotations

from typing import NamedTuple

from agentic_evals.skills.journeys.inputs import (
    WEAK_ORACLE_KINDS,
    ControlRef,
    InteractionInventory,
    Requirement,
    StateGraph,
)
from agentic_evals.skills.journeys.plan_models import BindingStatus, StepBinding


class Observed(NamedTuple):
    """What discovery saw: QIDs, and the transitions on each."""

    qids: frozenset[str]
    """QIDs of the inventory."""
    transitions: dict[str, list[tuple[str, str]]]
    """QID -> (from, to) transitions of the state graph."""
    states: frozenset[str]
    """State ids of the state graph."""


class Binding(NamedTuple):
    """How one requirement bound."""

    status: BindingStatus
    steps: list[StepBinding]
    weak_oracle: bool


def observe(inventory: InteractionInventory, graph: StateGraph) -> Observed:
    """Index the inventory and the state graph by QID."""
    transitions: dict[str, list[tuple[str, str]]] = {}
    for transition in graph.transitions:
        transitions.setdefault(transition.qid, []).append((transition.from_, transition.to))
    return Observed(
        frozenset(control.qid for control in inventory.controls),
        transitions,
        frozenset(state.id for state in graph.states),
    )


def bind_step(step: ControlRef, observed: Observed) -> StepBinding:
    """Bind one step (see the module docstring)."""
    moves = observed.transitions.get(step.qid, [])
    reason: str | None = None
    if step.qid not in observed.qids:
        reason = "the interaction inventory did not observe this QID"
    elif step.to_state is not None and step.to_state not in observed.states:
        reason = f"state {step.to_state!r} is not in the state graph"
    elif step.to_state is not None and all(to != step.to_state for _, to in moves):
        reason = f"the state graph has no transition on this QID into {step.to_state!r}"
    return StepBinding(
        qid=step.qid,
        action=step.action,
        to_state=step.to_state,
        bound=reason is None,
        reason=reason,
        transitions=[f"{before} -> {after}" for before, after in moves],
    )


def weak_oracle(requirement: Requirement) -> bool:
    """No oracle, or only exit-code and visibility checks."""
    return all(oracle.kind in WEAK_ORACLE_KINDS for oracle in requirement.oracles)


def bind_requirement(requirement: Requirement, observed: Observed) -> Binding:
    """Bind one requirement's journey."""
    if not requirement.applicable:
        return Binding("NOT_APPLICABLE", [], False)
    steps = [bind_step(step, observed) for step in requirement.controls]
    bound = sum(1 for step in steps if step.bound)
    status: BindingStatus
    if steps and bound == len(steps):
        status = "BOUND"
    elif bound:
        status = "PARTIALLY_BOUND"
    else:
        status = "UNBOUND"
    return Binding(status, steps, weak_oracle(requirement))
