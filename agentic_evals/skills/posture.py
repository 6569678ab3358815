"""A skill's eval posture, read from its own files.

First match wins:

1. ``eval_provider``: the skill is an evaluation tool: its folder is named
   ``agentic-evals`` or ``eval-skills``, or its front matter
   ``metadata.provides`` lists ``evals``, ``agentic-evaluation`` or
   ``skill-evaluation``.
2. ``agentic_fixture``: an agentic fixture exists, in ``fixtures/`` or in the
   evals tree (``<evals>/<skill>/agentic_eval*`` whose ``skill_root`` is the
   skill); whether it loads is a finding (EVAL005/EVAL006), not a posture.
3. ``legacy_eval_fixture``: ``fixtures/eval.json`` is a JSON object with
   ``"version": 1``.
4. ``delegates_to_eval_skill``: ``metadata.composes`` names an eval provider
   of the tree, **and** an agentic fixture of that provider declares
   ``"skill": <this skill>``. Composing ``agentic-evals`` alone is no posture.
5. ``task_harness``: another harness's task files name the skill
   (:mod:`~agentic_evals.skills.harness`).
6. ``eval_not_required``: ``metadata.eval_not_required`` holds a non-empty
   reason string (``true`` or an empty string is EVAL003).
7. ``prose_only``: the skill has no program at all: command cases cannot
   evaluate it.
8. ``missing``: none of the above.

``metadata.<key>`` is the specification's spelling; the old top-level
``composes``, ``provides`` and ``eval_not_required`` are still read (with an
EVAL009 warning), ``metadata`` winning when both are there. Lists are
comma-separated strings (the specification's string values) or YAML lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.skills.frontmatter import FrontMatter
from agentic_evals.skills.models import Posture
from agentic_evals.skills.skilldir import SkillFiles

EVAL_PROVIDER_NAMES = frozenset({"agentic-evals", "eval-skills"})
"""Folder names of the known evaluation tools."""
EVAL_PROVIDES = frozenset({"evals", "agentic-evaluation", "skill-evaluation"})
"""``provides`` capabilities that make a skill an eval provider."""
AGENTIC_EVALS = "agentic-evals"


class SkillMeta(NamedTuple):
    """The front-matter keys the audit reads, type-checked."""

    composes: tuple[str, ...] = ()
    """Skills this one composes."""
    provides: tuple[str, ...] = ()
    """Capabilities it provides."""
    eval_not_required: str | None = None
    """The reason it needs no evaluation, when it says so."""


class PostureResult(NamedTuple):
    """A posture and the evidence it was read from."""

    posture: Posture
    evidence: str


def _value(data: Mapping[str, object], key: str) -> tuple[object, str]:
    """``metadata.<key>`` (the specification's place), else the old top-level ``key``."""
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and key in metadata:
        return metadata[key], f"metadata.{key}"
    return data.get(key), key


def _names(front: FrontMatter, key: str) -> tuple[tuple[str, ...], list[Finding]]:
    """A list of names: a comma-separated string (the specification's form) or a YAML list."""
    assert front.data is not None
    value, spelled = _value(front.data, key)
    if value is None:
        return (), []
    if isinstance(value, str):
        return tuple(name.strip() for name in value.split(",") if name.strip()), []
    if isinstance(value, list) and all(isinstance(item, str) and item for item in value):
        return tuple(value), []
    message = (
        f"front matter '{spelled}' must name skills as a comma-separated string (or a list), "
        f"got {type(value).__name__} {value!r}"
    )
    line = front.key_lines.get(spelled.split(".")[0])
    return (), [finding(codes.EVAL_FRONT_MATTER, "", message, "error", file="SKILL.md", line=line)]


def skill_meta(front: FrontMatter) -> tuple[SkillMeta, list[Finding]]:
    """Read ``composes``, ``provides`` and ``eval_not_required`` from the front matter.

    Each is read from ``metadata`` first, then from the old top-level key
    (which the specification forbids: :mod:`~agentic_evals.skills.specification`
    warns about it).
    """
    data = front.data
    if data is None:
        return SkillMeta(), []
    composes, issues = _names(front, "composes")
    provides, more = _names(front, "provides")
    issues += more
    reason: str | None = None
    value, spelled = _value(data, "eval_not_required")
    if spelled != "eval_not_required" or "eval_not_required" in data:
        if isinstance(value, str) and value.strip():
            reason = value.strip()
        else:
            message = (
                f"front matter '{spelled}' must give the reason as a non-empty "
                f"string, got {value!r}"
            )
            line = front.key_lines.get(spelled.split(".")[0])
            issues.append(
                finding(codes.EVAL_FRONT_MATTER, "", message, "error", file="SKILL.md", line=line)
            )
    return SkillMeta(composes, provides, reason), issues


def is_eval_provider(name: str, meta: SkillMeta) -> bool:
    """Whether the skill is an evaluation tool (posture ``eval_provider``)."""
    return name in EVAL_PROVIDER_NAMES or bool(EVAL_PROVIDES.intersection(meta.provides))


def detect_posture(
    files: SkillFiles,
    meta: SkillMeta,
    *,
    legacy_ok: bool,
    delegated_to: Sequence[str],
    tasks: Sequence[str] = (),
) -> PostureResult:
    """The posture of one skill (see the module docstring for the rules).

    Args:
        files: The skill's files.
        meta: Its front-matter keys.
        legacy_ok: ``fixtures/eval.json`` is a version 1 legacy fixture.
        delegated_to: Fixtures of eval providers it composes that declare this skill,
            as ``provider/fixtures/...`` paths.
        tasks: Task files of another harness that name the skill.
    """
    if files.name in EVAL_PROVIDER_NAMES:
        return PostureResult("eval_provider", f"the folder is named {files.name!r}")
    provided = sorted(EVAL_PROVIDES.intersection(meta.provides))
    if provided:
        return PostureResult("eval_provider", f"front matter provides {', '.join(provided)}")
    if files.fixtures:
        return PostureResult("agentic_fixture", ", ".join(files.fixtures))
    if legacy_ok and files.legacy:
        return PostureResult("legacy_eval_fixture", f"{files.legacy} (version 1)")
    if delegated_to:
        return PostureResult("delegates_to_eval_skill", ", ".join(delegated_to))
    if tasks:
        return PostureResult("task_harness", ", ".join(tasks))
    if meta.eval_not_required:
        return PostureResult("eval_not_required", f"eval_not_required: {meta.eval_not_required}")
    if not files.entrypoints:
        return PostureResult("prose_only", "SKILL.md and no program: only prose")
    return PostureResult("missing", "no fixture, delegation or exemption")


def composed_providers(meta: SkillMeta, providers: frozenset[str]) -> list[str]:
    """The eval providers (of the tree, or known by name) that the skill composes."""
    return [name for name in meta.composes if name in providers or name in EVAL_PROVIDER_NAMES]
