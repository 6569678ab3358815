"""The anti-slop gate (SPEC section 2): fixtures that would prove nothing are rejected.

Commands are judged structurally (see :mod:`agentic_evals.commands.analysis`):
``: run.sh`` runs ``:``, and an argument that mentions ``e2e`` is no live path.
"""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.commands.analysis import CommandAnalysis
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.documents.findings import Finding, finding


def anti_slop_findings(fixture: Fixture, analyses: list[CommandAnalysis]) -> list[Finding]:
    """Every anti-slop violation of ``fixture`` (``analyses`` as from :func:`case_analyses`)."""
    found: list[Finding] = []
    if fixture.trials < 2:
        pointer = "/trials" if "trials" in fixture.model_fields_set else ""
        message = f"trials is {fixture.trials}: a single trial is not evidence, use at least 2"
        found.append(finding(codes.SLOP_TRIALS, pointer, message))
    if not any(case.type in ("negative", "adversarial") for case in fixture.cases):
        message = (
            f"all {len(fixture.cases)} cases are positive, which is self-serving: "
            "add a negative or adversarial case"
        )
        found.append(finding(codes.SLOP_NO_NEGATIVE, "/cases", message))
    why_not = [
        f"{case.name!r} {reason}"
        for case, analysis in zip(fixture.cases, analyses, strict=True)
        if case.real_world and (reason := not_live_reason(case, analysis))
    ]
    real = [case for case in fixture.cases if case.real_world]
    if len(why_not) == len(real):
        detail = "; ".join(why_not) if why_not else "no case declares real_world: true"
        message = f"no real-world case exercises a live path without stubs: {detail}"
        found.append(finding(codes.SLOP_NO_REAL_WORLD, "/cases", message))
    for index, (case, analysis) in enumerate(zip(fixture.cases, analyses, strict=True)):
        if analysis.trivial:
            message = f"case {case.name!r} proves nothing: {analysis.describe_trivial()}"
            found.append(finding(codes.SLOP_TRIVIAL, f"/cases/{index}/command", message))
    return found


def not_live_reason(case: Case, analysis: CommandAnalysis) -> str | None:
    """Why ``case`` does not exercise a live path without stubs; ``None`` when it does."""
    if case.mocked:
        return "is mocked"
    if case.uses_stub:
        return "uses stubs"
    if analysis.stubs:
        return f"feeds itself stub inputs ({', '.join(analysis.stubs)})"
    if not analysis.entrypoints:
        return f"reaches no entrypoint: {analysis.describe_not_live()}"
    return None
