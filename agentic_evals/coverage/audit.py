"""``coverage audit ROOT``: seam coverage of every skill folder of a tree.

Every immediate, non-hidden subfolder of ROOT with at least one
``fixtures/agentic_eval*`` file is analysed as ``coverage show`` would
(folders without one are listed as ``skipped``); the tree's summary counts
skills per verdict and adds up seams and gaps.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from agentic_evals.contract.layout import evals_tree
from agentic_evals.coverage.models import (
    VERDICTS,
    CoverageAudit,
    CoverageAuditSummary,
    SkillCoverage,
)
from agentic_evals.coverage.show import CoverageInputError, show_coverage
from agentic_evals.coverage.sources import fixture_files


def _subfolders(root: Path) -> list[Path]:
    try:
        with os.scandir(root) as entries:
            found = [
                Path(entry.path)
                for entry in entries
                if entry.is_dir() and not entry.name.startswith(".")
            ]
    except OSError as error:
        raise CoverageInputError(f"{root}: cannot be listed ({error.strerror})") from None
    return sorted(found, key=lambda folder: folder.name)


def audit_summary(skills: Sequence[SkillCoverage]) -> CoverageAuditSummary:
    """Counts over the tree."""
    verdicts = dict.fromkeys(VERDICTS, 0)
    for skill in skills:
        verdicts[skill.summary.verdict] += 1
    return CoverageAuditSummary(
        skills=len(skills),
        verdicts=dict(verdicts),
        not_ready=[skill.skill for skill in skills if skill.summary.verdict == "NOT_READY"],
        seams=sum(skill.summary.seams for skill in skills),
        covered=sum(skill.summary.covered for skill in skills),
        weak_only=sum(skill.summary.weak_only for skill in skills),
        gaps=sum(skill.summary.gaps for skill in skills),
        critical_gaps=sum(skill.summary.critical_gaps for skill in skills),
        undeclared_seam_ids=sum(len(skill.summary.undeclared_seam_ids) for skill in skills),
    )


def audit_coverage(root: Path, evals: Path | None = None) -> CoverageAudit:
    """The seam coverage of every skill folder with fixtures under ``root`` (or in ``evals``).

    Raises:
        CoverageInputError: ``root`` is not a folder, or no subfolder has a fixture.
    """
    if not root.is_dir():
        raise CoverageInputError(f"{root}: not a folder")
    skills: list[SkillCoverage] = []
    skipped: list[str] = []
    outside = evals_tree(root, evals)
    for folder in _subfolders(root):
        if not fixture_files(folder, outside):
            skipped.append(folder.name)
            continue
        report = show_coverage(folder, outside)
        skills.append(
            SkillCoverage(
                skill=folder.name,
                fixtures=report.fixtures,
                summary=report.summary,
                prioritized_gaps=report.prioritized_gaps,
                findings=report.findings,
            )
        )
    if not skills:
        raise CoverageInputError(
            f"{root}: no immediate subfolder has fixtures/agentic_eval*.json|yaml|yml"
        )
    return CoverageAudit(
        root=str(root), skills=skills, skipped=skipped, summary=audit_summary(skills)
    )
