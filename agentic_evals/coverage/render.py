"""Terminal summaries of the coverage documents (pure: models in, text out)."""

from __future__ import annotations

from agentic_evals.coverage.models import CoverageAudit, CoverageReport, SeamCoverage

MAX_FINDINGS = 20
"""Findings shown by ``coverage show`` before the rest are counted (all are in the JSON)."""


def _state(seam: SeamCoverage) -> str:
    if seam.covered:
        return "covered"
    return "WEAK-ONLY" if seam.weak_only else "UNCOVERED"


def _seam_line(seam: SeamCoverage, width: int) -> str:
    notes = []
    if seam.missing_evidence:
        notes.append(f"missing {', '.join(seam.missing_evidence)}")
    notes.append(f"guards {len(seam.covering_cases)}")
    if seam.weak_cases:
        notes.append(f"weak {len(seam.weak_cases)}")
    if seam.has_live_coverage:
        notes.append("live")
    if seam.regression_evidence:
        proofs = [
            item.regression_id + ("" if item.established_fail_before_fix else " (not proven)")
            for item in seam.regression_evidence
        ]
        notes.append(f"incidents {', '.join(proofs)}")
    return (
        f"  {_state(seam).ljust(9)} {seam.effective_criticality.ljust(9)} "
        f"{seam.seam_id.ljust(width)}  {'; '.join(notes)}"
    )


def render_report(report: CoverageReport, exit_code: int) -> str:
    """One line per seam, the gaps in order, the findings, then the verdict."""
    width = max((len(seam.seam_id) for seam in report.seams), default=0)
    lines = [
        f"agentic-evals coverage show: {report.skill} ({report.skill_dir}; "
        f"{', '.join(report.fixtures)})"
    ]
    lines += [_seam_line(seam, width) for seam in report.seams] or ["  no seams declared"]
    if report.prioritized_gaps:
        lines += ["", "gaps, most urgent first:"]
        lines += [f"  {gap.rank}. {gap.detail}" for gap in report.prioritized_gaps]
    if report.findings:
        lines += ["", "findings:"]
        lines += [f"  {item.render()}" for item in report.findings[:MAX_FINDINGS]]
        if len(report.findings) > MAX_FINDINGS:
            lines.append(f"  ... {len(report.findings) - MAX_FINDINGS} more in the JSON")
    summary = report.summary
    lines += [
        "",
        f"seams: {summary.seams} (critical {summary.critical_seams}); covered {summary.covered} "
        f"(critical {summary.critical_covered}); weak-only {summary.weak_only}; "
        f"live {summary.live_covered}; gaps {summary.gaps} (critical {summary.critical_gaps})",
        f"verdict: {summary.verdict} (exit {exit_code})",
    ]
    return "\n".join(lines) + "\n"


def render_audit(audit: CoverageAudit, exit_code: int) -> str:
    """One line per skill, then the counts per verdict and the exit code."""
    width = max((len(skill.skill) for skill in audit.skills), default=0)
    lines = [
        f"agentic-evals coverage audit: {len(audit.skills)} skills with fixtures under "
        f"{audit.root} ({len(audit.skipped)} folders without fixtures skipped)"
    ]
    for skill in audit.skills:
        s = skill.summary
        undeclared = f"; undeclared {len(s.undeclared_seam_ids)}" if s.undeclared_seam_ids else ""
        lines.append(
            f"  {s.verdict.ljust(26)} {skill.skill.ljust(width)}  seams {s.seams} "
            f"(critical {s.critical_seams}, covered {s.covered}, weak-only {s.weak_only}); "
            f"gaps {s.gaps} (critical {s.critical_gaps}){undeclared}"
        )
    summary = audit.summary
    counts = ", ".join(f"{name} {count}" for name, count in summary.verdicts.items())
    lines += [
        "",
        f"verdicts: {counts}",
        f"seams: {summary.seams}; covered {summary.covered}; weak-only {summary.weak_only}; "
        f"gaps {summary.gaps} (critical {summary.critical_gaps}); undeclared seam ids "
        f"{summary.undeclared_seam_ids} (exit {exit_code})",
    ]
    return "\n".join(lines) + "\n"
