"""The anti-slop gate (SPEC section 2): fixtures that would prove nothing are rejected.

What a case proves is read from the fact table (:mod:`.facts`): commands are
judged structurally (``: run.sh`` runs ``:``, and an argument that mentions
``e2e`` is no live path), and what is live is decided by :mod:`.qualification`.
A real-world case whose checks all pass on the null trial (:mod:`.null_trial`)
is weak and does not count either.
Only required cases satisfy the gate: a negative or real-world case marked
``required: false`` can fail while the run is READY, so it proves nothing
(and making it optional is no way around the gate).
"""

from __future__ import annotations

from collections.abc import Mapping

from agentic_evals import codes
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import HOSTILE_TYPES
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.evidence.facts import CaseEvidence


def _not_real(facts: CaseEvidence) -> str | None:
    """Why a real-world case does not count for the gate, in words; ``None`` when it does."""
    if reason := facts.live_path_problem:
        return reason
    if facts.weak:
        return "proves nothing: every check passes on the null trial (before the command runs)"
    return None


def anti_slop_findings(fixture: Fixture, table: Mapping[str, CaseEvidence]) -> list[Finding]:
    """Every anti-slop violation of ``fixture``, whose cases' facts are ``table``."""
    found: list[Finding] = []
    if fixture.trials < 2:
        pointer = "/trials" if "trials" in fixture.model_fields_set else ""
        message = f"trials is {fixture.trials}: a single trial is not evidence, use at least 2"
        found.append(finding(codes.SLOP_TRIALS, pointer, message))
    if not any(case.type in HOSTILE_TYPES and case.required for case in fixture.cases):
        optional = sum(case.type in HOSTILE_TYPES for case in fixture.cases)
        message = (
            f"no required case of {len(fixture.cases)} is negative or adversarial, which is "
            "self-serving: add a required negative or adversarial case"
            + (f" ({optional} optional one(s) prove nothing)" if optional else "")
        )
        found.append(finding(codes.SLOP_NO_NEGATIVE, "/cases", message))
    real = [table[case.name] for case in fixture.cases if case.real_world and case.required]
    why_not = [f"{facts.case.name!r} {reason}" for facts in real if (reason := _not_real(facts))]
    if len(why_not) == len(real):
        detail = "; ".join(why_not) if why_not else "no required case declares real_world: true"
        message = f"no real-world case exercises a live path without stubs: {detail}"
        found.append(finding(codes.SLOP_NO_REAL_WORLD, "/cases", message))
    for index, case in enumerate(fixture.cases):
        analysis = table[case.name].analysis
        if analysis.trivial:
            message = f"case {case.name!r} proves nothing: {analysis.describe_trivial()}"
            found.append(finding(codes.SLOP_TRIVIAL, f"/cases/{index}/command", message))
    return found
