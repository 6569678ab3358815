"""``audit-skills ROOT``: the eval posture of every skill in a tree, in one process.

Every immediate subfolder of ROOT with a ``SKILL.md`` is a skill. For each,
the front matter is parsed in-process (:mod:`~agentic_evals.skills.frontmatter`),
the posture read from its own files (:mod:`~agentic_evals.skills.posture`), its
fixtures loaded as ``validate`` would (:mod:`~agentic_evals.skills.fixture_checks`),
and a next step recommended (:mod:`~agentic_evals.skills.actions`).

A skill's fixtures are those of its ``fixtures/`` and those of the evals tree
(``--evals DIR``, default ``evals/`` beside ROOT when it exists: one folder
per skill, fixtures matched to the skill through their ``skill_root``).

Rules: EVAL001 (error) a runtime surface (programs: executables and
``*.py``/``*.sh``/``*.js``/``*.ts`` files) with posture ``missing``; EVAL002
(warning) ``agentic-evals`` not in ``metadata.composes`` (not asked of eval
providers, of skills exempt by ``eval_not_required``, of prose-only skills and
skills another harness evaluates, or when the front matter could not be read:
EVAL003 says so); EVAL003 (error)
front matter missing, broken or malformed; EVAL004 (warning) front matter in
a code fence; EVAL005/EVAL006 (error) a fixture that does not load / that
the gates reject; EVAL007 (warning) only scaffold fixtures; EVAL008
(warning) a legacy version 1 fixture; EVAL009 to EVAL012 the front matter
rules of the Agent Skills specification
(:mod:`~agentic_evals.skills.specification`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.contract.layout import evals_tree
from agentic_evals.documents.findings import Finding, finding, ordered
from agentic_evals.skills.actions import recommend
from agentic_evals.skills.fixture_checks import check_fixtures, check_legacy, declared_skill
from agentic_evals.skills.frontmatter import FrontMatter, read_front_matter
from agentic_evals.skills.harness import task_index
from agentic_evals.skills.models import (
    ACTIONS,
    POSTURES,
    AuditSummary,
    SkillAudit,
    SkillsAudit,
)
from agentic_evals.skills.posture import (
    AGENTIC_EVALS,
    SkillMeta,
    composed_providers,
    detect_posture,
    is_eval_provider,
    skill_meta,
)
from agentic_evals.skills.skilldir import SKILL_MD, SkillFiles, find_skills, scan_skill
from agentic_evals.skills.specification import specification_findings

_NOT_COMPOSING = frozenset({"eval_provider", "eval_not_required", "prose_only", "task_harness"})
"""Postures of which EVAL002 asks nothing: agentic-evals has nothing to run for them."""


class AuditInputError(ValueError):
    """ROOT cannot be audited (not a folder, unreadable, no skills, unknown ``--only``)."""


def _delegations(providers: Sequence[SkillFiles]) -> dict[str, list[str]]:
    """Skill name -> ``provider/fixtures/...`` files of eval providers declaring it."""
    index: dict[str, list[str]] = {}
    for provider in providers:
        for rel in provider.fixtures:
            skill = declared_skill(provider.path / rel)
            if skill and skill != provider.name:
                index.setdefault(skill, []).append(f"{provider.name}/{rel}")
    return index


class _Tree(NamedTuple):
    """What the audit knows of the whole tree when it audits one skill."""

    delegations: Mapping[str, list[str]]
    providers: frozenset[str]
    tasks: Mapping[str, list[str]]


def _audit_one(
    files: SkillFiles,
    front: FrontMatter,
    meta_and_issues: tuple[SkillMeta, list[Finding]],
    tree: _Tree,
) -> SkillAudit:
    meta, issues = meta_and_issues
    issues = [*front.issues, *issues, *specification_findings(front, files.name)]
    legacy_ok, legacy_issues = check_legacy(files)
    issues += legacy_issues
    composed = set(composed_providers(meta, tree.providers))
    offered = tree.delegations.get(files.name, [])
    delegated = [path for path in offered if path.split("/")[0] in composed]
    tasks = tree.tasks.get(files.name, [])
    found = detect_posture(files, meta, legacy_ok=legacy_ok, delegated_to=delegated, tasks=tasks)
    fixture_check = check_fixtures(files) if files.fixtures else None
    if fixture_check is not None:
        issues += fixture_check.issues
        if fixture_check.all_scaffold:
            message = (
                "every fixture of the skill is an eval_kind: scaffold or runner_selftest "
                "fixture: none of them is evidence for the skill"
            )
            issues.append(
                finding(codes.EVAL_SCAFFOLD_ONLY, "", message, "warning", file=files.fixtures[0])
            )
    if found.posture == "missing" and files.entrypoints:
        issues.append(_no_posture(files, composed))
    exempt = found.posture in _NOT_COMPOSING
    if front.data is not None and not exempt and AGENTIC_EVALS not in meta.composes:
        message = "the front matter's metadata.composes does not list agentic-evals"
        line = front.key_lines.get("metadata", front.key_lines.get("composes"))
        issues.append(
            finding(codes.EVAL_NOT_COMPOSED, "", message, "warning", file=SKILL_MD, line=line)
        )
    findings = ordered(issue.model_copy(update={"skill": files.name}) for issue in issues)
    advice = recommend(
        str(files.path), found.posture, {f.code for f in findings}, bool(files.entrypoints)
    )
    return SkillAudit(
        skill=files.name,
        eval_posture=found.posture,
        posture_evidence=found.evidence,
        recommended_action=advice.action,
        recommended_detail=advice.detail,
        ready=not any(f.severity == "error" for f in findings),
        runtime_surface=list(files.entrypoints),
        fixtures=list(files.fixtures),
        eval_findings=findings,
    )


def _no_posture(files: SkillFiles, composed: set[str]) -> Finding:
    shown = files.entrypoints[:3]
    more = len(files.entrypoints) - len(shown)
    surface = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
    message = f"has a runtime surface ({surface}) but no eval posture"
    if composed:
        message += (
            f"; it composes {', '.join(sorted(composed))}, but no fixture there declares "
            f"'skill': {files.name!r}"
        )
    return finding(codes.EVAL_NO_POSTURE, "", message, "error", file=files.entrypoints[0])


def summarize(skills: Sequence[SkillAudit]) -> AuditSummary:
    """Counts over the audited skills (every posture, rule and action, zeros included)."""
    findings = [finding for skill in skills for finding in skill.eval_findings]
    postures = Counter(skill.eval_posture for skill in skills)
    rules = Counter(finding.code for finding in findings)
    actions = Counter(skill.recommended_action for skill in skills)
    errors = sum(1 for finding in findings if finding.severity == "error")
    ready = sum(1 for skill in skills if skill.ready)
    return AuditSummary(
        skills=len(skills),
        ready=ready,
        not_ready=len(skills) - ready,
        errors=errors,
        warnings=len(findings) - errors,
        postures={posture: postures[posture] for posture in POSTURES},
        rules={code: rules[code] for code in codes.EVAL_CODES},
        actions={action: actions[action] for action in ACTIONS},
    )


def audit_skills(root: Path, only: Sequence[str] = (), evals: Path | None = None) -> SkillsAudit:
    """Audit every skill folder under ``root`` (or only the ones named in ``only``).

    ``evals`` is the evals tree (default: ``evals/`` beside ``root`` when it exists).

    Raises:
        AuditInputError: ``root`` is not a readable folder with skills, or ``only``
            names a folder that is not a skill.
    """
    if not root.is_dir():
        raise AuditInputError(f"{root} is not a folder")
    try:
        folders = find_skills(root)
    except OSError as exc:
        raise AuditInputError(f"cannot list {root}: {exc.strerror or exc}") from exc
    if not folders:
        raise AuditInputError(f"no skill folders (subfolders with {SKILL_MD}) under {root}")
    names = {folder.name for folder in folders}
    unknown = sorted(set(only) - names)
    if unknown:
        raise AuditInputError(f"not a skill folder under {root}: {', '.join(unknown)}")
    outside = evals_tree(root, evals)
    scans = [scan_skill(folder, outside) for folder in folders]
    fronts = {files.name: read_front_matter(files.path / SKILL_MD) for files in scans}
    metas = {name: skill_meta(front) for name, front in fronts.items()}
    providers = [files for files in scans if is_eval_provider(files.name, metas[files.name][0])]
    provider_names = frozenset(files.name for files in providers)
    tree = _Tree(_delegations(providers), provider_names, task_index(root))
    chosen = [files for files in scans if not only or files.name in only]
    skills = [_audit_one(files, fronts[files.name], metas[files.name], tree) for files in chosen]
    findings = [finding for skill in skills for finding in skill.eval_findings]
    return SkillsAudit(root=str(root), skills=skills, findings=findings, summary=summarize(skills))
