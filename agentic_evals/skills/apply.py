"""``apply-scaffolds ROOT``: a scaffold fixture for every eligible skill of a tree.

Eligible: posture ``missing``, or an ``eval_provider`` with no fixture of its
own (postures from :func:`~agentic_evals.skills.audit.audit_skills`). Skipped,
with the reason: skills that already have an agentic fixture (in
``fixtures/`` or the evals tree), delegate to an eval skill, are evaluated by
another harness's task files, are exempt (``eval_not_required``), are only
prose (no command can evaluate them), or have a legacy ``fixtures/eval.json``
to migrate. ``force`` replaces the file a scaffold
goes to only when that file is itself a scaffold: a
hand-written fixture is never overwritten by the bulk tool (use
``scaffold-fixture --force`` on that one skill). With an evals tree (``--evals
DIR``, default ``evals/`` beside ``root`` when present) each scaffold goes to
``<evals>/<skill>/agentic_eval.json`` with ``skill_root`` set, never into the
skill. Dry run unless ``write``.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentic_evals.contract.layout import evals_tree
from agentic_evals.skills.audit import audit_skills
from agentic_evals.skills.fixture_checks import declared_kind
from agentic_evals.skills.models import ScaffoldReceipt, SkillAudit, SkippedSkill
from agentic_evals.skills.scaffold import (
    DEFAULT_FIXTURE,
    ScaffoldError,
    build_scaffold,
    scaffold_place,
)
from agentic_evals.skills.scaffold import write_scaffold as write_one

_POSTURE_REASONS = {
    "delegates_to_eval_skill": "evaluated by an eval skill's fixture ({evidence})",
    "eval_not_required": "exempt: {evidence}",
    "legacy_eval_fixture": "has a legacy {evidence}: migrate it instead",
    "task_harness": "evaluated by another harness's task files ({evidence})",
    "prose_only": "only prose, no program: command cases cannot evaluate it",
}


def skip_reason(
    skill: SkillAudit, skill_dir: Path, force: bool, evals: Path | None = None
) -> tuple[str | None, bool]:
    """Why ``skill`` gets no scaffold (``None``: it does), and whether one is replaced."""
    template = _POSTURE_REASONS.get(skill.eval_posture)
    if template is not None:
        return template.format(evidence=skill.posture_evidence), False
    if not skill.fixtures:
        return None, False
    listed = ", ".join(skill.fixtures)
    if not force:
        return f"has an agentic fixture ({listed})", False
    target = scaffold_place(skill_dir, evals)
    named = os.path.relpath(target, skill_dir)
    if named not in skill.fixtures:
        return f"has an agentic fixture ({listed}); --force only replaces {named}", False
    if declared_kind(target) != "scaffold":
        return f"{named} is not a scaffold; --force only replaces scaffolds", False
    return None, True


def _aliases(folders: list[Path]) -> dict[str, str]:
    """Skill folders that are another's under a second name (a symlink), each to that name.

    Skills are told apart by their resolved path; of several names for one folder, the one
    that is no symlink (else the first by name) is the skill, the others its aliases.
    """
    by_real: dict[str, list[Path]] = {}
    for folder in folders:
        by_real.setdefault(os.path.realpath(folder), []).append(folder)
    aliases: dict[str, str] = {}
    for names in by_real.values():
        kept = min(names, key=lambda folder: (folder.is_symlink(), folder.name))
        aliases.update({folder.name: kept.name for folder in names if folder != kept})
    return aliases


def apply_scaffolds(
    root: Path,
    *,
    write: bool = False,
    force: bool = False,
    limit: int | None = None,
    evals: Path | None = None,
) -> ScaffoldReceipt:
    """Scaffold every eligible skill under ``root`` (a dry run unless ``write``).

    Raises:
        AuditInputError: ``root`` is not a readable folder with skills.
    """
    audit = audit_skills(root, evals=evals)
    outside = evals_tree(root, evals)
    created: list[str] = []
    overwritten: list[str] = []
    would_create: list[str] = []
    skipped: list[SkippedSkill] = []
    failed: list[SkippedSkill] = []
    aliases = _aliases([root / skill.skill for skill in audit.skills])
    for skill in audit.skills:
        skill_dir = root / skill.skill
        reason, replaces = skip_reason(skill, skill_dir, force, outside)
        if skill.skill in aliases:
            reason, replaces = f"the same folder as {aliases[skill.skill]} (a symlink)", False
        if reason is None and limit is not None and len(created) + len(would_create) >= limit:
            reason = f"--limit {limit} reached"
        if reason is not None:
            skipped.append(SkippedSkill(skill=skill.skill, reason=reason))
            continue
        if not write:
            would_create.append(skill.skill)
            continue
        try:
            write_one(
                build_scaffold(skill_dir, evals=outside),
                force=replaces,
                within=root if outside is None else outside,
            )
        except (OSError, ScaffoldError) as exc:
            failed.append(SkippedSkill(skill=skill.skill, reason=str(exc)))
            continue
        created.append(skill.skill)
        if replaces:
            overwritten.append(skill.skill)
    return ScaffoldReceipt(
        root=str(root),
        write=write,
        force=force,
        limit=limit,
        fixture_path=DEFAULT_FIXTURE if outside is None else f"{outside}/<skill>/agentic_eval.json",
        created=created,
        overwritten=overwritten,
        would_create=would_create,
        skipped=skipped,
        failed=failed,
    )
