"""audit-skills: each finding, the recommended actions, the summary and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from builders import COMPOSED, DESCRIBED, REPO, make_skill
from click.testing import CliRunner
from skills_helpers import SOUND_FIXTURE, sound_fixture

from agentic_evals.cli import cli
from agentic_evals.skills.audit import AuditInputError, audit_skills
from agentic_evals.skills.models import SkillAudit


def audit_one(root: Path, name: str) -> SkillAudit:
    (skill,) = audit_skills(root, [name]).skills
    return skill


def rules(skill: SkillAudit) -> list[str]:
    return [finding.code for finding in skill.eval_findings]


def test_eval001_runtime_surface_without_posture_is_an_error(tmp_path: Path) -> None:
    make_skill(tmp_path, "s", files={"run.sh": "", "sanity.sh": ""})
    (finding,) = audit_one(tmp_path, "s").eval_findings
    assert (finding.code, finding.severity, finding.skill) == ("EVAL001", "error", "s")
    assert finding.message == (
        "has a runtime surface (run.sh, sanity.sh) but no eval posture; it composes "
        "agentic-evals, but no fixture there declares 'skill': 's'"
    )


def test_eval002_agentic_evals_not_composed_is_a_warning(tmp_path: Path) -> None:
    files = {"run.sh": "", "fixtures/agentic_eval.json": sound_fixture("s")}
    make_skill(tmp_path, "s", DESCRIBED + "metadata:\n  composes: memory\n", files=files)
    skill = audit_one(tmp_path, "s")
    (finding,) = skill.eval_findings
    assert (finding.code, finding.severity, finding.line) == ("EVAL002", "warning", 4)
    assert skill.ready and skill.recommended_action == "compose_agentic_evals"


def test_eval003_broken_front_matter_is_a_finding_not_an_early_exit(tmp_path: Path) -> None:
    make_skill(tmp_path, "broken", skill_md="---\nname: [oops\n---\n", files={"run.sh": ""})
    make_skill(
        tmp_path, "fine", files={"run.sh": "", "fixtures/agentic_eval.json": sound_fixture("fine")}
    )
    audit = audit_skills(tmp_path)
    broken, fine = audit.skills
    assert rules(broken) == ["EVAL003", "EVAL001"]
    assert broken.recommended_action == "fix_front_matter"
    assert fine.ready and rules(fine) == []


@pytest.mark.parametrize(
    ("front", "needle"),
    [
        ("composes: {a: b}\n", "'composes' must name skills as a comma-separated string"),
        ("metadata: {provides: 3}\n", "'metadata.provides' must name skills"),
        ("eval_not_required: true\n", "must give the reason as a non-empty string"),
        ("metadata:\n  eval_not_required: ''\n", "'metadata.eval_not_required' must give the"),
        ("name: again\n", "duplicate key 'name'"),
    ],
)
def test_eval003_malformed_keys(tmp_path: Path, front: str, needle: str) -> None:
    make_skill(tmp_path, "s", DESCRIBED + front)
    skill = audit_one(tmp_path, "s")
    assert "EVAL003" in rules(skill)
    assert any(needle in f.message for f in skill.eval_findings), skill.eval_findings
    assert skill.eval_posture == "prose_only" and not skill.ready


def test_eval004_fenced_front_matter_is_read(tmp_path: Path) -> None:
    text = f"````markdown\n---\nname: s\n{COMPOSED}---\n# s\n````\n"
    make_skill(tmp_path, "s", skill_md=text)
    skill = audit_one(tmp_path, "s")
    assert rules(skill) == ["EVAL004"]  # composes was read: no EVAL002
    assert skill.ready


def test_eval005_fixture_that_does_not_load(tmp_path: Path) -> None:
    bad = {**SOUND_FIXTURE, "skill": "s", "trials": "two"}
    make_skill(tmp_path, "s", files={"run.sh": "", "fixtures/agentic_eval.json": json.dumps(bad)})
    make_skill(tmp_path, "t", files={"run.sh": "", "fixtures/agentic_eval.json": "{not json"})
    for name in ("s", "t"):
        skill = audit_one(tmp_path, name)
        (finding,) = skill.eval_findings
        assert (finding.code, finding.severity) == ("EVAL005", "error")
        assert finding.file == "fixtures/agentic_eval.json"
        assert skill.eval_posture == "agentic_fixture" and skill.recommended_action == "fix_fixture"
    assert "AE-SCHEMA-TYPE at /trials" in audit_one(tmp_path, "s").eval_findings[0].message


def test_eval005_eval_json_that_is_not_a_legacy_fixture(tmp_path: Path) -> None:
    document = json.dumps({"version": 2, "skill": "s", "cases": []})
    make_skill(tmp_path, "s", files={"run.sh": "", "fixtures/eval.json": document})
    skill = audit_one(tmp_path, "s")
    assert rules(skill) == ["EVAL005", "EVAL001"] and skill.eval_posture == "missing"


def test_eval006_fixture_rejected_by_the_gates(tmp_path: Path) -> None:
    slop = {**SOUND_FIXTURE, "skill": "s", "trials": 1}
    make_skill(tmp_path, "s", files={"run.sh": "", "fixtures/agentic_eval.json": json.dumps(slop)})
    skill = audit_one(tmp_path, "s")
    (finding,) = skill.eval_findings
    assert (finding.code, finding.severity) == ("EVAL006", "error")
    assert "AE-SLOP-TRIALS" in finding.message
    assert skill.recommended_action == "fix_fixture"


def test_eval007_scaffold_never_strengthened(tmp_path: Path) -> None:
    scaffold = {**SOUND_FIXTURE, "skill": "s", "eval_kind": "scaffold", "trials": 1}
    files = {"run.sh": "", "fixtures/agentic_eval.json": json.dumps(scaffold)}
    make_skill(tmp_path, "s", files=files)
    skill = audit_one(tmp_path, "s")
    assert rules(skill) == ["EVAL007"] and skill.ready
    assert skill.recommended_action == "strengthen_scaffold"
    # A strengthened fixture next to the scaffold clears it.
    (tmp_path / "s" / "fixtures" / "agentic_eval_live.json").write_text(sound_fixture("s"))
    assert rules(audit_one(tmp_path, "s")) == []


def test_eval007_a_runner_selftest_is_no_evidence_for_the_skill(tmp_path: Path) -> None:
    selftest = {**SOUND_FIXTURE, "skill": "s", "eval_kind": "runner_selftest"}
    make_skill(
        tmp_path, "s", files={"run.sh": "", "fixtures/agentic_eval.json": json.dumps(selftest)}
    )
    skill = audit_one(tmp_path, "s")
    assert rules(skill) == ["EVAL007"]
    assert "runner_selftest" in skill.eval_findings[0].message


def test_eval008_legacy_fixture(tmp_path: Path) -> None:
    legacy = json.dumps({"version": 1, "skill": "s", "cases": []})
    make_skill(tmp_path, "s", files={"fixtures/eval.json": legacy})
    (finding,) = audit_one(tmp_path, "s").eval_findings
    assert (finding.code, finding.severity) == ("EVAL008", "warning")


def test_summary_counts_every_posture_rule_and_action(tmp_path: Path) -> None:
    make_skill(tmp_path, "a", files={"run.sh": ""})
    make_skill(tmp_path, "b", DESCRIBED + "metadata: {eval_not_required: a reason}\n")
    make_skill(
        tmp_path, "c", files={"run.sh": "", "fixtures/agentic_eval.json": sound_fixture("c")}
    )
    summary = audit_skills(tmp_path).summary
    assert (summary.skills, summary.ready, summary.not_ready) == (3, 2, 1)
    assert (summary.errors, summary.warnings) == (1, 0)
    assert summary.postures == {
        "eval_provider": 0,
        "agentic_fixture": 1,
        "legacy_eval_fixture": 0,
        "delegates_to_eval_skill": 0,
        "task_harness": 0,
        "eval_not_required": 1,
        "prose_only": 0,
        "missing": 1,
    }
    assert summary.rules["EVAL001"] == 1 and sum(summary.rules.values()) == 1
    assert summary.actions["scaffold_fixture"] == 1 and summary.actions["none"] == 2


def test_only_restricts_the_audit_and_unknown_names_are_rejected(tmp_path: Path) -> None:
    make_skill(tmp_path, "a")
    make_skill(tmp_path, "b")
    (tmp_path / "not-a-skill").mkdir()
    assert [s.skill for s in audit_skills(tmp_path).skills] == ["a", "b"]
    assert [s.skill for s in audit_skills(tmp_path, ["b"]).skills] == ["b"]
    with pytest.raises(AuditInputError, match="not-a-skill"):
        audit_skills(tmp_path, ["not-a-skill"])


def test_cli_exit_codes_and_json_output(tmp_path: Path) -> None:
    schema = json.loads((REPO / "schemas" / "skills_audit.schema.json").read_text())
    make_skill(tmp_path, "ok", COMPOSED)
    output = tmp_path / "audit.json"
    result = CliRunner().invoke(cli, ["audit-skills", str(tmp_path), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert "ready: 1 of 1 (exit 0)" in result.stdout
    document = json.loads(output.read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    assert set(document) == {"schema", "root", "skills", "findings", "summary"}
    assert set(document["skills"][0]) >= {
        "skill",
        "eval_posture",
        "recommended_action",
        "eval_findings",
    }
    make_skill(tmp_path, "bad", files={"run.sh": ""})
    result = CliRunner().invoke(cli, ["audit-skills", str(tmp_path), "-o", "-"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["findings"] == [
        {
            "code": "EVAL001",
            "severity": "error",
            "pointer": "",
            "message": "has a runtime surface (run.sh) but no eval posture; it composes "
            "agentic-evals, but no fixture there declares 'skill': 'bad'",
            "file": "run.sh",
            "line": None,
            "column": None,
            "skill": "bad",
        }
    ]
    assert "ready: 1 of 2 (exit 1)" in result.stderr


@pytest.mark.parametrize("case", ["absent", "file", "empty", "only"])
def test_cli_bad_root_exits_2(tmp_path: Path, case: str) -> None:
    root = tmp_path / "root"
    args = ["audit-skills", str(root)]
    if case == "file":
        root.write_text("x")
    elif case == "empty":
        root.mkdir()
    elif case == "only":
        make_skill(root, "a")
        args += ["--only", "zzz"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("agentic-evals audit-skills:")
