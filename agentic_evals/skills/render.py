"""Terminal summaries of the fleet tools' documents (pure: text in, text out)."""

from __future__ import annotations

from agentic_evals.skills.journeys.plan_models import JourneyPlan
from agentic_evals.skills.models import ScaffoldReceipt, SkillsAudit


def _counts(counts: dict[str, int]) -> str:
    shown = [f"{name} {count}" for name, count in counts.items() if count]
    return ", ".join(shown) or "none"


def render_audit(audit: SkillsAudit, exit_code: int) -> str:
    """One line per skill, then the counts and the exit code."""
    width = max((len(skill.skill) for skill in audit.skills), default=0)
    lines = [f"agentic-evals audit-skills: {len(audit.skills)} skills under {audit.root}"]
    for skill in audit.skills:
        rules = " ".join(sorted({finding.code for finding in skill.eval_findings}))
        lines.append(
            f"  {'ok ' if skill.ready else 'NOT'} {skill.skill.ljust(width)}  "
            f"{skill.eval_posture.ljust(23)} {skill.recommended_action.ljust(22)} {rules}".rstrip()
        )
    summary = audit.summary
    lines += [
        "",
        f"postures: {_counts(summary.postures)}",
        f"findings: {summary.errors} errors, {summary.warnings} warnings "
        f"({_counts(summary.rules)})",
        f"actions: {_counts(summary.actions)}",
        f"ready: {summary.ready} of {summary.skills} (exit {exit_code})",
    ]
    return "\n".join(lines) + "\n"


def render_receipt(receipt: ScaffoldReceipt) -> str:
    """What ``apply-scaffolds`` did (or would do), in a few lines."""
    mode = "write" if receipt.write else "dry run (pass --write to create)"
    lines = [f"agentic-evals apply-scaffolds: {receipt.root} ({mode})"]
    if receipt.write:
        lines.append(f"created {len(receipt.created)}: {', '.join(receipt.created) or '-'}")
        if receipt.overwritten:
            lines.append(f"replaced scaffolds: {', '.join(receipt.overwritten)}")
    else:
        lines.append(
            f"would create {len(receipt.would_create)}: {', '.join(receipt.would_create) or '-'}"
        )
    lines.append(f"skipped {len(receipt.skipped)}")
    lines += [f"  {item.skill}: {item.reason}" for item in receipt.skipped]
    if receipt.failed:
        lines.append(f"failed {len(receipt.failed)}")
        lines += [f"  {item.skill}: {item.reason}" for item in receipt.failed]
    return "\n".join(lines) + "\n"


def render_plan(plan: JourneyPlan, exit_code: int) -> str:
    """One line per requirement, then the counts and the exit code."""
    width = max((len(j.requirement_id) for j in plan.journeys), default=0)
    lines = [f"agentic-evals plan-journeys: {plan.skill}"]
    for journey in plan.journeys:
        notes = []
        if journey.missing_qids:
            notes.append(f"missing {' '.join(journey.missing_qids)}")
        if journey.weak_oracle:
            notes.append("weak oracle")
        if journey.unknown_claim_ids:
            notes.append(f"unknown claims {' '.join(journey.unknown_claim_ids)}")
        lines.append(
            f"  {journey.status.ljust(15)} {journey.requirement_id.ljust(width)}  "
            f"{journey.criticality.ljust(9)} {'; '.join(notes)}".rstrip()
        )
    summary = plan.summary
    lines += [
        "",
        f"requirements: {summary.requirements} (bound {summary.bound}, partially bound "
        f"{summary.partially_bound}, unbound {summary.unbound}, not applicable "
        f"{summary.not_applicable}); weak oracles: {summary.weak_oracles}",
        f"missing critical journeys: {summary.missing_critical_journeys}; untraced critical "
        f"claims: {summary.untraced_critical_claims}",
        f"critical requirements bound: {'yes' if summary.critical_bound else 'no'} "
        f"(exit {exit_code})",
    ]
    return "\n".join(lines) + "\n"
