"""Everything a coverage report says, as findings: its own, and each uncovered seam.

A report lists its findings and, apart, its prioritized gaps. Outputs that
list findings only (SARIF for code scanning) need the gaps too: each
uncovered seam becomes an ``AE-COV-UNCOVERED-SEAM`` finding at the seam's
declaration (an error for a critical seam, else a warning). A missing
value-representation seam is already an ``AE-COV-VALUE-SEAM`` finding.
Files stay relative to the skill folder, as in the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from agentic_evals import codes
from agentic_evals.coverage.models import CoverageAudit, CoverageGap, CoverageReport
from agentic_evals.documents.findings import Finding, Severity, finding
from agentic_evals.documents.located import FileLocator, member_pointer


def gap_findings(
    gaps: Sequence[CoverageGap],
    declared_in: Mapping[str, Sequence[str]],
    fixtures: Sequence[str],
    skill_dir: Path,
) -> list[Finding]:
    """One finding per uncovered seam of ``gaps``, at the first fixture that declares it."""
    locator = FileLocator()
    found = []
    for gap in gaps:
        if gap.kind != "uncovered_seam" or gap.seam_id is None:
            continue
        files = declared_in.get(gap.seam_id) or fixtures[:1]
        file = files[0] if files else None
        pointer = ""
        if file is not None:
            document = locator.parsed(skill_dir / file).value
            pointer = member_pointer(document, "seams", "seam_id", gap.seam_id) or ""
        severity: Severity = "error" if gap.effective_criticality == "critical" else "warning"
        found.append(
            finding(
                codes.COV_UNCOVERED_SEAM,
                pointer,
                gap.detail,
                severity,
                file=file,
                seam_id=gap.seam_id,
            )  # fmt: skip
        )
    return found


def report_findings(report: CoverageReport) -> list[tuple[Finding, Path]]:
    """``coverage show``: its findings and uncovered seams, each with the skill folder."""
    skill_dir = Path(report.skill_dir)
    declared = {seam.seam_id: seam.declared_in for seam in report.seams}
    gaps = gap_findings(report.prioritized_gaps, declared, report.fixtures, skill_dir)
    return [(item, skill_dir) for item in [*report.findings, *gaps]]


def audit_findings(audit: CoverageAudit) -> list[tuple[Finding, Path]]:
    """``coverage audit``: every skill's findings and uncovered seams, with its folder."""
    found = []
    for skill in audit.skills:
        skill_dir = Path(audit.root) / skill.skill
        gaps = gap_findings(skill.prioritized_gaps, {}, skill.fixtures, skill_dir)
        found += [(item, skill_dir) for item in [*skill.findings, *gaps]]
    return found
