"""The recommended next step for one skill, from its posture and findings (pure).

First match wins: broken front matter, then a fixture that does not load or
pass the gates, then no posture at all, then only prose, then a legacy
fixture, then a scaffold never strengthened, then a missing
``metadata.composes: agentic-evals``, then front matter the Agent Skills
specification refuses. Advice about the front matter only ever spells keys
the specification allows (``metadata.<key>``, string values).
"""

from __future__ import annotations

from collections.abc import Set
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.skills.models import Action, Posture


class Recommendation(NamedTuple):
    """A stable action token and the same advice in words."""

    action: Action
    detail: str


def recommend(
    skill: str, posture: Posture, rules: Set[str], has_entrypoint: bool
) -> Recommendation:
    """Recommend the next step for ``skill``.

    Args:
        skill: The skill's folder, as a path to show in commands.
        posture: Its eval posture.
        rules: The rules of its findings.
        has_entrypoint: It has a program (a runtime surface).
    """
    if codes.EVAL_FRONT_MATTER in rules:
        return Recommendation(
            "fix_front_matter", "repair the YAML front matter at the top of SKILL.md"
        )
    if codes.EVAL_FIXTURE_INVALID in rules or codes.EVAL_FIXTURE_GATED in rules:
        return Recommendation(
            "fix_fixture",
            f"fix the fixture until `agentic-evals validate` accepts it ({skill}/fixtures/)",
        )
    if posture == "missing":
        what = "an entrypoint-backed" if has_entrypoint else "a static contract"
        return Recommendation(
            "scaffold_fixture",
            f"write {what} first fixture: agentic-evals scaffold-fixture {skill} "
            "(or declare metadata: {eval_not_required: <reason>} in the front matter)",
        )
    if posture == "prose_only":
        return Recommendation(
            "evaluate_prose_with_a_harness",
            "the skill is only prose (no program): command cases cannot evaluate it; evaluate "
            "it with an agent harness's task files (tasks/*.yaml naming skill: skills/<name>), "
            "or declare metadata: {eval_not_required: <reason>} in the front matter",
        )
    if posture == "legacy_eval_fixture":
        return Recommendation(
            "migrate_legacy_fixture",
            "migrate fixtures/eval.json (version 1) to fixtures/agentic_eval.json (version 2)",
        )
    if codes.EVAL_SCAFFOLD_ONLY in rules:
        return Recommendation(
            "strengthen_scaffold",
            "replace the scaffold with real cases: a negative case, a real-world case, "
            "oracles that read results back, then drop eval_kind: scaffold",
        )
    if codes.EVAL_NOT_COMPOSED in rules:
        return Recommendation(
            "compose_agentic_evals",
            "add agentic-evals to metadata.composes in the front matter "
            "(metadata: {composes: agentic-evals}; a comma-separated string for several)",
        )
    if rules & SPECIFICATION_RULES:
        return Recommendation(
            "fix_front_matter",
            "make the front matter what the Agent Skills specification allows (EVAL009 to "
            "EVAL012): move other keys under metadata, as strings",
        )
    return Recommendation("none", "nothing to do")


SPECIFICATION_RULES = frozenset(
    {codes.EVAL_SPEC_KEY, codes.EVAL_SPEC_NAME, codes.EVAL_SPEC_DESCRIPTION, codes.EVAL_SPEC_FIELD}
)
"""The findings of the specification's front matter rules."""
