"""The summary's evidence lines: every downgraded, weak or vacuous case, and what READY needs."""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.reports.model import CaseReport, Report


def case_codes(case: CaseReport) -> list[str]:
    """The evidence codes of ``case``: its vacuous checks, weakness, downgrade, missing reason."""
    found = [f"{codes.VACUOUS_ORACLE} {pointer}" for pointer in case.vacuous_checks]
    if case.weak:
        found.append(f"{codes.NO_FAILING_ORACLE} (weak: every check passes on the null trial)")
    found += case.evidence_disqualifiers
    if case.reason_problem and not case.weak:
        found.append(f"no reason shown: {case.reason_problem}")
    if case.live_path_problem and not case.weak:
        found.append(f"no live path: {case.live_path_problem}")
    return found


def evidence_lines(report: Report) -> list[str]:
    """One line per case with evidence codes, then, when not READY, what would make it READY."""
    lines = [
        f"  evidence: {case.name}: {'; '.join(found)}"
        for case in report.cases
        if (found := case_codes(case))
    ]
    needed = ready_needs(report)
    if needed:
        lines.append("to be READY: " + "; ".join(needed))
    return lines


def ready_needs(report: Report) -> list[str]:
    """What would make ``report`` READY, short (empty when it is READY)."""
    if report.readiness == "READY":
        return []
    needed: list[str] = []
    failing = [c.name for c in report.cases if c.required and c.outcome != "PASS"]
    if failing:
        needed.append("make the required case(s) pass: " + ", ".join(failing))
    block = report.capability_readiness
    for claim in block.claims if block else []:
        if claim.verdict != "PROVEN" and claim.criticality == "critical":
            missing = ", ".join(claim.missing_evidence) or "its evidence"
            needed.append(f"prove claim {claim.id} ({missing})")
    for item in report.evidence_findings:
        if item.code == codes.SLOP_NO_REAL_WORLD:
            needed.append(
                "make a required real_world case run a substantive skill-tree file, "
                "without stubs, with a check that fails on the null trial"
            )
        if item.code == codes.EVID_NONE:
            lacking = item.message.partition("they lack ")[2]
            needed.append(f"add {lacking}" if lacking else item.message)
    if not needed:
        needed.append("see why: above")
    return needed
