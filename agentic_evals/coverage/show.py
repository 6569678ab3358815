"""``coverage show SKILL_DIR``: read the skill's fixtures and registry, build the report.

Static: nothing runs. The only reads are the fixture files, the registry and
the files live qualification looks at to see whether a command reaches an
entrypoint.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from agentic_evals.coverage.analysis import coverage_gaps, seam_coverage, value_seam_gaps, verdict
from agentic_evals.coverage.incidents import incidents_by_seam, read_registry
from agentic_evals.coverage.models import (
    CoverageGap,
    CoverageReport,
    CoverageSummary,
    SeamCoverage,
)
from agentic_evals.coverage.sources import FixtureRead, fixture_files, read_for_coverage
from agentic_evals.coverage.union import (
    merge_claims,
    merge_seams,
    undeclared_seams,
    unknown_regression_seams,
)
from agentic_evals.documents.findings import Finding, ordered


class CoverageInputError(ValueError):
    """The skill folder is missing or has no fixture: nothing to analyse (exit 2)."""


def _skill_name(skill_dir: Path, reads: Sequence[FixtureRead]) -> str:
    for read in reads:
        if read.skill:
            return read.skill
    return Path(os.path.abspath(skill_dir)).name


def summarize(
    reads: Sequence[FixtureRead],
    seams: Sequence[SeamCoverage],
    gaps: Sequence[CoverageGap],
    undeclared: list[str],
    findings: Sequence[Finding],
) -> CoverageSummary:
    """Counts and verdict of one skill."""
    critical = [seam for seam in seams if seam.effective_criticality == "critical"]
    severities = Counter(item.severity for item in findings)
    return CoverageSummary(
        verdict=verdict(seams, gaps, readable=all(read.readable for read in reads)),
        fixtures=len(reads),
        fixtures_not_loading=sum(1 for read in reads if read.rejected or not read.readable),
        cases=sum(len(read.cases) for read in reads),
        seams=len(seams),
        critical_seams=len(critical),
        covered=sum(1 for seam in seams if seam.covered),
        critical_covered=sum(1 for seam in critical if seam.covered),
        weak_only=sum(1 for seam in seams if seam.weak_only),
        uncovered=sum(1 for seam in seams if not seam.covered),
        live_covered=sum(1 for seam in seams if seam.has_live_coverage),
        gaps=len(gaps),
        critical_gaps=sum(1 for gap in gaps if gap.effective_criticality == "critical"),
        undeclared_seam_ids=undeclared,
        unestablished_regressions=len(
            {
                item.regression_id
                for seam in seams
                for item in seam.regression_evidence
                if item.status == "ACTIVE" and not item.established_fail_before_fix
            }
        ),
        errors=severities["error"],
        warnings=severities["warning"],
        infos=severities["info"],
    )


def show_coverage(skill_dir: Path) -> CoverageReport:
    """The seam coverage of the skill at ``skill_dir`` (README: coverage rules).

    Raises:
        CoverageInputError: ``skill_dir`` is not a folder, or has no
            ``fixtures/agentic_eval*`` file.
    """
    if not skill_dir.is_dir():
        raise CoverageInputError(f"{skill_dir}: not a folder")
    paths = fixture_files(skill_dir)
    if not paths:
        raise CoverageInputError(
            f"{skill_dir}: no fixture (fixtures/agentic_eval*.json|yaml|yml) to analyse"
        )
    reads = [read_for_coverage(path, skill_dir) for path in paths]
    registry = read_registry(skill_dir)
    declared, conflicts = merge_seams(seam for read in reads for seam in read.declarations.seams)
    claims = merge_claims(claim for read in reads for claim in read.declarations.claims)
    cases = [case for read in reads for case in read.cases]
    ids = {seam.seam_id for seam in declared}
    undeclared, undeclared_findings = undeclared_seams(cases, ids)
    incidents = incidents_by_seam(registry.records)
    seams = [seam_coverage(seam, cases, incidents) for seam in declared]
    value_gaps, value_findings = value_seam_gaps(claims, declared)
    gaps = coverage_gaps(seams, value_gaps)
    findings = ordered(
        [finding for read in reads for finding in read.findings]
        + conflicts
        + undeclared_findings
        + value_findings
        + registry.findings
        + unknown_regression_seams(registry.records, ids, registry.path)
    )
    return CoverageReport(
        skill=_skill_name(skill_dir, reads),
        skill_dir=str(skill_dir),
        fixtures=[read.file for read in reads],
        registry=registry.path,
        seams=seams,
        prioritized_gaps=gaps,
        summary=summarize(reads, seams, gaps, undeclared, findings),
        findings=findings,
    )
