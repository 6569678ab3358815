"""audit-skills: each posture, read from the skill's own files."""

from __future__ import annotations

import json
from pathlib import Path

from builders import COMPOSED, DESCRIBED, make_skill
from skills_helpers import sound_fixture

from agentic_evals.skills.audit import audit_skills
from agentic_evals.skills.models import SkillAudit


def audit_one(root: Path, name: str) -> SkillAudit:
    (skill,) = [s for s in audit_skills(root).skills if s.skill == name]
    return skill


def rules(skill: SkillAudit) -> list[str]:
    return [finding.code for finding in skill.eval_findings]


def test_eval_provider_by_folder_name(tmp_path: Path) -> None:
    make_skill(tmp_path, "agentic-evals", "description: evals\n", files={"run.sh": ""})
    skill = audit_one(tmp_path, "agentic-evals")
    assert skill.eval_posture == "eval_provider"
    assert rules(skill) == [] and skill.ready and skill.recommended_action == "none"


def test_eval_provider_by_provides(tmp_path: Path) -> None:
    make_skill(tmp_path, "judge", "provides: [skill-evaluation]\n", files={"run.sh": ""})
    skill = audit_one(tmp_path, "judge")
    assert skill.eval_posture == "eval_provider"
    assert skill.posture_evidence == "front matter provides skill-evaluation"
    assert "EVAL002" not in rules(skill)


def test_agentic_fixture_json_and_yaml(tmp_path: Path) -> None:
    make_skill(
        tmp_path,
        "tally",
        files={"run.sh": "", "fixtures/agentic_eval.json": sound_fixture("tally")},
    )
    yaml_text = json.dumps(json.loads(sound_fixture("other")))  # JSON is YAML
    make_skill(
        tmp_path,
        "other",
        files={"run.sh": "", "fixtures/agentic_eval_live.yaml": yaml_text},
    )
    tally = audit_one(tmp_path, "tally")
    assert tally.eval_posture == "agentic_fixture"
    assert tally.fixtures == ["fixtures/agentic_eval.json"]
    assert rules(tally) == [] and tally.ready and tally.recommended_action == "none"
    other = audit_one(tmp_path, "other")
    assert other.eval_posture == "agentic_fixture" and rules(other) == []
    assert other.fixtures == ["fixtures/agentic_eval_live.yaml"]


def test_legacy_eval_fixture(tmp_path: Path) -> None:
    legacy = json.dumps({"version": 1, "skill": "old", "cases": []})
    make_skill(tmp_path, "old", files={"run.sh": "", "fixtures/eval.json": legacy})
    skill = audit_one(tmp_path, "old")
    assert skill.eval_posture == "legacy_eval_fixture"
    assert rules(skill) == ["EVAL008"] and skill.ready
    assert skill.recommended_action == "migrate_legacy_fixture"


def test_delegates_to_eval_skill_needs_a_fixture_that_names_it(tmp_path: Path) -> None:
    delegated = {**json.loads(sound_fixture("consumer"))}
    make_skill(
        tmp_path,
        "agentic-evals",
        files={"fixtures/agentic_eval_consumer.json": json.dumps(delegated)},
    )
    make_skill(tmp_path, "consumer", COMPOSED, files={"run.sh": ""})
    skill = audit_one(tmp_path, "consumer")
    assert skill.eval_posture == "delegates_to_eval_skill"
    assert skill.posture_evidence == "agentic-evals/fixtures/agentic_eval_consumer.json"
    assert rules(skill) == [] and skill.ready


def test_composing_agentic_evals_alone_is_no_posture(tmp_path: Path) -> None:
    make_skill(tmp_path, "agentic-evals")
    make_skill(tmp_path, "consumer", COMPOSED, files={"run.sh": ""})
    skill = audit_one(tmp_path, "consumer")
    assert skill.eval_posture == "missing"
    (finding,) = skill.eval_findings
    assert finding.code == "EVAL001"
    assert "composes agentic-evals, but no fixture there declares 'skill': 'consumer'" in (
        finding.message
    )


def test_delegation_to_a_provider_the_skill_does_not_compose_does_not_count(
    tmp_path: Path,
) -> None:
    make_skill(
        tmp_path,
        "agentic-evals",
        files={"fixtures/agentic_eval_consumer.json": sound_fixture("consumer")},
    )
    make_skill(tmp_path, "consumer", "composes: []\n", files={"run.sh": ""})
    assert audit_one(tmp_path, "consumer").eval_posture == "missing"


def test_eval_not_required_with_a_reason(tmp_path: Path) -> None:
    front = DESCRIBED + "metadata:\n  eval_not_required: documentation only, nothing runs\n"
    make_skill(tmp_path, "docs", front, files={"run.sh": ""})
    skill = audit_one(tmp_path, "docs")
    assert skill.eval_posture == "eval_not_required"
    assert skill.posture_evidence == "eval_not_required: documentation only, nothing runs"
    assert rules(skill) == [] and skill.ready and skill.recommended_action == "none"
    # The old top-level spelling is still read, with a warning that the specification forbids it.
    old = DESCRIBED + "eval_not_required: documentation only, nothing runs\n"
    make_skill(tmp_path, "old", old, files={"run.sh": ""})
    skill = audit_one(tmp_path, "old")
    assert skill.eval_posture == "eval_not_required" and rules(skill) == ["EVAL009"]
    assert "metadata: {eval_not_required: ...}" in skill.eval_findings[0].message


def test_missing_posture(tmp_path: Path) -> None:
    make_skill(tmp_path, "bare", files={"sanity.sh": ""})
    skill = audit_one(tmp_path, "bare")
    assert skill.eval_posture == "missing"
    assert skill.runtime_surface == ["sanity.sh"]
    assert rules(skill) == ["EVAL001"] and not skill.ready
    assert skill.recommended_action == "scaffold_fixture"
    assert "entrypoint-backed" in skill.recommended_detail


def test_a_skill_of_prose_only_is_prose_only_not_missing(tmp_path: Path) -> None:
    make_skill(tmp_path, "notes", files={"references/guide.md": "# guide\n"})
    skill = audit_one(tmp_path, "notes")
    assert skill.eval_posture == "prose_only" and skill.ready and rules(skill) == []
    assert skill.recommended_action == "evaluate_prose_with_a_harness"
    assert "command cases cannot evaluate it" in skill.recommended_detail
    assert "scaffold" not in skill.recommended_detail


def test_a_fixture_outranks_an_exemption_and_a_provider_outranks_all(tmp_path: Path) -> None:
    files = {"run.sh": "", "fixtures/agentic_eval.json": sound_fixture("both")}
    front = COMPOSED + "  eval_not_required: later\n"
    make_skill(tmp_path, "both", front, files=files)
    make_skill(tmp_path, "eval-skills", files=files)
    assert audit_one(tmp_path, "both").eval_posture == "agentic_fixture"
    assert audit_one(tmp_path, "eval-skills").eval_posture == "eval_provider"
