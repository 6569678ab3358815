"""Thin conversions of each command's findings into SARIF findings.

``validate``'s load findings already are SARIF findings. The skill-tree
audit (``SkillFinding``), the coverage audit (``CoverageFinding`` and its
uncovered seams) and the regression audit (row issues, unmapped incidents)
name their location differently; each adapter below only renames fields and
locates pointers, so that one finding type can later replace them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.findings import Finding
from agentic_evals.coverage.models import CoverageAudit, CoverageReport, SkillCoverage
from agentic_evals.fleet.models import SkillsAudit
from agentic_evals.regressions.results import RegressionRow, RegressionsAudit, RegressionsShow
from agentic_evals.reports.locations import PointerLocator
from agentic_evals.reports.model import Report


class Located(NamedTuple):
    """A plain SARIF finding."""

    code: str
    severity: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None


def _at(locator: PointerLocator, path: Path, pointer: str) -> tuple[int | None, int | None]:
    found = locator.position(path, pointer)
    return (None, None) if found is None else found


def from_skills_audit(audit: SkillsAudit, root: Path) -> list[Located]:
    """``audit-skills`` findings, at the skill's file (``SKILL.md`` when none is named)."""
    return [
        Located(
            f.rule,
            f.severity,
            f"{f.skill}: {f.message}",
            str(root / f.skill / (f.path or "SKILL.md")),
            f.line,
        )
        for f in audit.findings
    ]


def _seam_pointer(locator: PointerLocator, path: Path, seam_id: str) -> str:
    document = locator.document(path)
    seams = document.get("seams") if isinstance(document, dict) else None
    for index, seam in enumerate(seams if isinstance(seams, list) else []):
        if isinstance(seam, dict) and seam.get("seam_id") == seam_id:
            return f"/seams/{index}"
    return ""


def _coverage(skill: SkillCoverage | CoverageReport, skill_dir: Path) -> list[Located]:
    locator = PointerLocator()
    found = []
    for f in skill.findings:
        path = skill_dir / f.file if f.file else None
        line, column = _at(locator, path, f.pointer) if path else (None, None)
        found.append(
            Located(f.code, f.severity, f.message, str(path) if path else None, line, column)
        )
    declared = {s.seam_id: s.declared_in for s in getattr(skill, "seams", [])}
    for gap in skill.prioritized_gaps:
        if gap.kind != "uncovered_seam" or gap.seam_id is None:
            continue  # a missing value seam is already an AE-COV-VALUE-SEAM finding
        files = declared.get(gap.seam_id) or skill.fixtures[:1]
        path = skill_dir / files[0] if files else None
        line = column = None
        if path is not None:
            line, column = _at(locator, path, _seam_pointer(locator, path, gap.seam_id))
        severity = "error" if gap.effective_criticality == "critical" else "warning"
        message = f"seam {gap.seam_id}: {gap.detail}"
        found.append(
            Located(
                codes.COV_UNCOVERED_SEAM,
                severity,
                message,
                str(path) if path else None,
                line,
                column,
            )
        )
    return found


def from_coverage_report(report: CoverageReport) -> list[Located]:
    """``coverage show`` findings and uncovered seams."""
    return _coverage(report, Path(report.skill_dir))


def from_coverage_audit(audit: CoverageAudit) -> list[Located]:
    """``coverage audit``: every skill's findings and uncovered seams."""
    root = Path(audit.root)
    return [item for skill in audit.skills for item in _coverage(skill, root / skill.skill)]


def _rows(rows: Iterable[RegressionRow], registry: Path, locator: PointerLocator) -> list[Located]:
    found = []
    for index, row in enumerate(rows):
        line, column = _at(locator, registry, f"/regressions/{index}")
        for issue in row.issues:
            code, _, detail = issue.partition(":")
            severity = "warning" if code in (codes.REG_RETIRED, codes.REG_EXEMPT) else "error"
            message = f"{row.regression_id}: {detail.strip() or code}"
            found.append(Located(code.strip(), severity, message, str(registry), line, column))
    return found


def _regressions(
    registry: Path, rows: list[RegressionRow], incidents: list[str], findings: list[Finding]
) -> list[Located]:
    locator = PointerLocator()
    found: list[Located] = [
        Located(f.code, f.severity, f.message, f.file, f.line, f.column) for f in findings
    ]
    found += _rows(rows, registry, locator)
    line, column = _at(locator, registry, "/incidents")
    found += [
        Located(
            codes.UNMAPPED_INCIDENT,
            "error",
            f"open incident {i} is mapped by no regression",
            str(registry),
            line,
            column,
        )
        for i in incidents
    ]
    return found


def from_regressions_show(show: RegressionsShow) -> list[Located]:
    """``regressions show``: load findings, row issues, unmapped incidents."""
    incidents = [incident.id for incident in show.unmapped_incidents]
    return _regressions(Path(show.registry), show.rows, incidents, show.findings)


def from_regressions_audit(audit: RegressionsAudit) -> list[Located]:
    """``regressions audit``: the same for every registry of the tree."""
    found: list[Located] = []
    for skill in audit.skills:
        incidents = [incident.id for incident in skill.unmapped_incidents]
        found += _regressions(Path(skill.registry), skill.rows, incidents, skill.findings)
    return found


def from_findings(findings: Iterable[Finding]) -> list[Finding]:
    """``validate``: its findings are SARIF findings as they are."""
    return list(findings)


def from_run_report(report: Report, lines: Mapping[str, int]) -> list[Located]:
    """A run report's load warnings, then each failing or blocked case's distinct problems."""
    found = [
        Located(f.code, f.severity, f.message, f.file, f.line, f.column) for f in report.warnings
    ]
    for case in report.cases:
        if case.outcome not in ("FAIL", "BLOCKED"):
            continue
        severity = "error" if case.outcome == "FAIL" and case.required else "warning"
        for problem in {p.code: p for p in case.problems}.values():
            message = f"{case.name}: {problem.message}"
            found.append(
                Located(problem.code, severity, message, report.source, lines.get(case.name))
            )
    return found
