"""``regressions audit ROOT``: every skill registry of a tree, in one process.

Each immediate subfolder with ``fixtures/regressions.json`` is audited as
``show`` audits it. A registry that declares another format, and any other
``fixtures/regressions*`` file (``regressions.local.json``), is listed under
``skipped`` with the reason; a registry of ours that does not load is listed
with ``valid: false`` and its findings, and the others are still audited.
"""

from __future__ import annotations

from pathlib import Path

from agentic_evals import clock
from agentic_evals.contract.layout import evals_tree
from agentic_evals.documents.findings import Finding
from agentic_evals.regressions.audit import DEFAULT_FRESHNESS_DAYS, audit_registry
from agentic_evals.regressions.load import is_foreign, load_registry
from agentic_evals.regressions.results import (
    RegressionsAudit,
    RegressionSummary,
    RootSummary,
    SkillRegressions,
    SkippedRegistry,
)
from agentic_evals.regressions.skill import (
    find_registry,
    other_registries,
    skill_folders,
    why_skipped,
)

_COUNTS = tuple(RegressionSummary.model_fields)


def audit_tree(
    root: Path, freshness_days: int = DEFAULT_FRESHNESS_DAYS, evals: Path | None = None
) -> RegressionsAudit:
    """Audit the registry of every skill folder of ``root`` (its own, or the evals tree's).

    Raises:
        RegressionsInputError: ``root`` is not a folder.
    """
    as_of = clock.today()
    skills: list[SkillRegressions] = []
    skipped: list[SkippedRegistry] = []
    outside = evals_tree(root, evals)
    for folder in skill_folders(root):
        skipped += [_skipped(folder, other) for other in other_registries(folder)]
        path = find_registry(folder, outside)
        if path is None:
            continue
        loaded = load_registry(path)
        if is_foreign(loaded):
            reason = "; ".join(finding.message for finding in loaded.errors)
            skipped.append(SkippedRegistry(skill=folder.name, path=str(path), reason=reason))
            continue
        if loaded.model is None:
            skills.append(_invalid(folder.name, path, loaded.findings))
            continue
        rows, unmapped, summary = audit_registry(
            loaded.model, path.parent, as_of=as_of, freshness_days=freshness_days
        )
        skills.append(
            SkillRegressions(
                skill=folder.name,
                registry=str(path),
                valid=True,
                rows=rows,
                unmapped_incidents=unmapped,
                summary=summary,
                findings=loaded.findings,
            )
        )
    return RegressionsAudit(
        root=str(root),
        as_of=as_of.isoformat(),
        freshness_days=freshness_days,
        skills=skills,
        skipped=skipped,
        summary=_root_summary(skills, len(skipped)),
    )


def _invalid(skill: str, path: Path, findings: list[Finding]) -> SkillRegressions:
    return SkillRegressions(
        skill=skill,
        registry=str(path),
        valid=False,
        rows=[],
        unmapped_incidents=[],
        summary=None,
        findings=findings,
    )


def _skipped(folder: Path, path: Path) -> SkippedRegistry:
    return SkippedRegistry(skill=folder.name, path=str(path), reason=why_skipped(path))


def _root_summary(skills: list[SkillRegressions], skipped: int) -> RootSummary:
    totals = dict.fromkeys(_COUNTS, 0)
    for skill in skills:
        if skill.summary is not None:
            for name in _COUNTS:
                totals[name] += getattr(skill.summary, name)
    return RootSummary(
        skills=len(skills),
        invalid=sum(not skill.valid for skill in skills),
        skipped=skipped,
        regressions=RegressionSummary(**totals),
    )
