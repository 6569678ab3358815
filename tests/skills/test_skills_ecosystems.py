"""audit-skills on a tree shaped like public skill repositories.

Script skills with their programs under ``scripts/``, prose-only skills, the
specification's ``metadata.composes``, another harness's task files, and
fixtures kept in an ``evals/`` tree outside the skills they evaluate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import case, fixture, make_skill, write_file
from click.testing import CliRunner

from agentic_evals.cli import cli
from agentic_evals.skills.audit import audit_skills
from agentic_evals.skills.models import SkillAudit, SkillsAudit

SCRIPT = "import sys\nprint('usage: extract.py FILE', file=sys.stderr)\nsys.exit(2)\n"


def front(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n# {name}\n"


def outside_fixture(name: str) -> dict[str, Any]:
    run = ["python3", "${SKILL_ROOT}/scripts/extract.py"]
    return fixture(
        [
            case(
                "extracts",
                command=[*run, "in.pdf"],
                expected={"exit_code": 0, "artifacts": [{"path": "out.txt", "exists": True}]},
                real_world=True,
                evidence_class="deterministic",
            ),
            case("rejects-no-file", "negative", run, {"exit_code": 2}),
        ],
        skill=name,
        skill_root=f"../../skills/{name}",
    )


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    skills = tmp_path / "skills"
    scripts = {"scripts/extract.py": SCRIPT, "scripts/merge.sh": "echo merged\n"}
    scripts["scripts/lib/util.py"] = "X = 1\n"
    make_skill(
        skills,
        "pdf-tools",
        skill_md=front("pdf-tools", "metadata:\n  composes: agentic-evals\n"),
        files=scripts,
    )
    write_file(tmp_path / "evals" / "pdf-tools" / "agentic_eval.json", outside_fixture("pdf-tools"))
    make_skill(
        skills, "writer", skill_md=front("writer"), files={"references/style.md": "# style\n"}
    )
    make_skill(skills, "reviewer", skill_md=front("reviewer"))
    write_file(tmp_path / "tasks" / "review-1.yaml", "skill: skills/reviewer\nprompt: review\n")
    write_file(tmp_path / "tasks" / "nested" / "both.yaml", "skills: [skills/reviewer/]\n")
    old = front("old-keys", "composes: [agentic-evals]\nprovides: [pdf]\n")
    make_skill(skills, "old-keys", skill_md=old, files={"tool": "#!/bin/sh\necho hi\n"})
    (skills / "old-keys" / "tool").chmod(0o755)
    bad = "---\nname: Bad--Name\ndescription: " + "x" * 1025 + "\nallowed-tools: [Read]\n---\n"
    make_skill(skills, "bad-name", skill_md=bad)
    return tmp_path


def by_name(audit: SkillsAudit) -> dict[str, SkillAudit]:
    return {skill.skill: skill for skill in audit.skills}


def codes_of(skill: SkillAudit) -> list[str]:
    return [f.code for f in skill.eval_findings]


def test_postures_of_a_public_shaped_tree(repository: Path) -> None:
    skills = by_name(audit_skills(repository / "skills"))
    tools = skills["pdf-tools"]
    assert tools.eval_posture == "agentic_fixture"
    assert tools.fixtures == ["../../evals/pdf-tools/agentic_eval.json"]
    assert tools.runtime_surface == [
        "scripts/extract.py",
        "scripts/lib/util.py",
        "scripts/merge.sh",
    ]
    assert codes_of(tools) == [] and tools.ready and tools.recommended_action == "none"
    writer = skills["writer"]
    assert writer.eval_posture == "prose_only" and codes_of(writer) == []
    assert writer.recommended_action == "evaluate_prose_with_a_harness"
    reviewer = skills["reviewer"]
    assert reviewer.eval_posture == "task_harness"
    assert reviewer.posture_evidence == "tasks/nested/both.yaml, tasks/review-1.yaml"
    assert codes_of(reviewer) == []
    old = skills["old-keys"]
    assert old.eval_posture == "missing" and old.runtime_surface == ["tool"]
    assert codes_of(old) == ["EVAL001", "EVAL009", "EVAL009"]  # composes still read: no EVAL002
    assert old.recommended_action == "scaffold_fixture"


def test_the_front_matter_rules_of_the_specification(repository: Path) -> None:
    bad = by_name(audit_skills(repository / "skills"))["bad-name"]
    found = {(f.code, f.severity) for f in bad.eval_findings}
    assert found == {("EVAL010", "error"), ("EVAL011", "error"), ("EVAL012", "error")}
    messages = " ".join(f.message for f in bad.eval_findings)
    assert "single hyphens" in messages and "1025 characters, more than 1024" in messages


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("x" * 65, "1 to 64 characters"),
        ("-lead", "single hyphens"),
        ("trail-", "single hyphens"),
        ("Upper", "single hyphens"),
        ("other", "must be the skill's folder name"),
    ],
)
def test_name_rules(tmp_path: Path, name: str, why: str) -> None:
    folder = "other-folder" if name == "other" else name
    make_skill(tmp_path, folder, skill_md=front(name))
    (skill,) = audit_skills(tmp_path).skills
    (finding,) = skill.eval_findings
    assert finding.code == "EVAL010" and why in finding.message and finding.line == 2


def test_the_evals_tree_can_be_named(repository: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (repository / "evals").rename(elsewhere)
    assert by_name(audit_skills(repository / "skills"))["pdf-tools"].eval_posture == "missing"
    # The fixture names its skill through skill_root, relative to its own folder.
    document = outside_fixture("pdf-tools")
    document["skill_root"] = "../../repo-skills"
    write_file(elsewhere / "pdf-tools" / "agentic_eval.json", document)
    (repository / "skills").rename(tmp_path / "repo-skills")
    tools = by_name(audit_skills(tmp_path / "repo-skills", evals=elsewhere))["pdf-tools"]
    assert tools.eval_posture == "missing"  # skill_root names the tree, not the skill
    document["skill_root"] = "../../repo-skills/pdf-tools"
    write_file(elsewhere / "pdf-tools" / "agentic_eval.json", document)
    tools = by_name(audit_skills(tmp_path / "repo-skills", evals=elsewhere))["pdf-tools"]
    assert tools.eval_posture == "agentic_fixture" and tools.ready


def test_a_fixture_of_the_evals_tree_that_names_another_skill_is_not_this_ones(
    repository: Path,
) -> None:
    document = outside_fixture("pdf-tools")
    document["skill_root"] = "../../skills/writer"
    write_file(repository / "evals" / "pdf-tools" / "agentic_eval.json", document)
    tools = by_name(audit_skills(repository / "skills"))["pdf-tools"]
    assert tools.eval_posture == "missing" and tools.fixtures == []


def test_cli_audit_skills_takes_evals(repository: Path) -> None:
    moved = repository / "my-evals"
    (repository / "evals").rename(moved)
    output = repository / "audit.json"
    args = ["audit-skills", str(repository / "skills"), "--only", "pdf-tools", "-o", str(output)]
    CliRunner().invoke(cli, args)
    assert json.loads(output.read_text())["skills"][0]["eval_posture"] == "missing"
    result = CliRunner().invoke(cli, [*args, "--evals", str(moved)])
    assert result.exit_code == 0, result.output
    assert json.loads(output.read_text())["skills"][0]["eval_posture"] == "agentic_fixture"
    missing = CliRunner().invoke(cli, [*args, "--evals", str(repository / "nowhere")])
    assert missing.exit_code == 2


def apply_advice(skill_md: Path) -> None:
    """Do what the audit advises about the front matter, as a user would."""
    text = skill_md.read_text()
    head, body = text.split("---\n", 2)[1:]
    data = yaml.safe_load(head)
    metadata = dict(data.pop("metadata", None) or {})
    for key in ("composes", "provides", "eval_not_required"):
        if key in data:  # EVAL009: move it under metadata, as a string
            value = data.pop(key)
            metadata[key] = ", ".join(value) if isinstance(value, list) else value
    names = [n.strip() for n in str(metadata.get("composes", "")).split(",") if n.strip()]
    if "agentic-evals" not in names:  # EVAL002: add it to metadata.composes
        metadata["composes"] = ", ".join([*names, "agentic-evals"])
    data["metadata"] = metadata
    skill_md.write_text("---\n" + yaml.safe_dump(data, sort_keys=False) + "---\n" + body)


def test_following_the_advice_never_adds_a_forbidden_key(repository: Path) -> None:
    skills = repository / "skills"
    make_skill(skills, "uncomposed", skill_md=front("uncomposed"), files={"run.py": "print(1)\n"})
    before = by_name(audit_skills(skills))
    assert "EVAL002" in codes_of(before["uncomposed"])
    for name in ("uncomposed", "old-keys"):
        apply_advice(skills / name / "SKILL.md")
    after = by_name(audit_skills(skills))
    for name in ("uncomposed", "old-keys"):
        assert not {"EVAL002", "EVAL009", "EVAL010", "EVAL011", "EVAL012"} & set(
            codes_of(after[name])
        ), after[name].eval_findings
        data = yaml.safe_load((skills / name / "SKILL.md").read_text().split("---\n")[1])
        assert set(data) <= {
            "name",
            "description",
            "license",
            "compatibility",
            "metadata",
            "allowed-tools",
        }
        assert all(isinstance(v, str) for v in data["metadata"].values())


def test_the_advice_spells_only_allowed_keys(repository: Path) -> None:
    skills = repository / "skills"
    files = {"scripts/extract.py": SCRIPT}
    make_skill(skills, "uncomposed", skill_md=front("uncomposed"), files=files)
    write_file(
        repository / "evals" / "uncomposed" / "agentic_eval.json", outside_fixture("uncomposed")
    )
    audit = audit_skills(skills)
    for skill in audit.skills:
        detail = skill.recommended_detail
        for key in ("composes", "provides", "eval_not_required"):
            for at in range(len(detail)):
                if detail.startswith(key, at):
                    assert detail[:at].endswith(("metadata.", "metadata: {")), (skill.skill, detail)
    composed = by_name(audit)["uncomposed"]
    assert composed.recommended_action == "compose_agentic_evals"
    assert "metadata.composes" in composed.recommended_detail


def test_coverage_and_regressions_find_the_evals_tree(repository: Path) -> None:
    document = outside_fixture("pdf-tools")
    document["seams"] = [
        {
            "seam_id": "extract",
            "seam_type": "parser",
            "criticality": "critical",
            "required_evidence": ["deterministic"],
        }
    ]
    document["cases"][0]["seams"] = ["extract"]
    write_file(repository / "evals" / "pdf-tools" / "agentic_eval.json", document)
    registry = {
        "schema": "agentic_evals.regressions.v1",
        "regressions": [{"regression_id": "r1", "retained_case": "extracts"}],
    }
    write_file(repository / "evals" / "pdf-tools" / "regressions.json", registry)
    skill = repository / "skills" / "pdf-tools"
    shown = CliRunner().invoke(cli, ["coverage", "show", str(skill), "-o", "-"])
    report = json.loads(shown.stdout)
    assert report["fixtures"] == ["../../evals/pdf-tools/agentic_eval.json"]
    assert report["summary"]["verdict"] == "READY", report
    audited = CliRunner().invoke(cli, ["coverage", "audit", str(repository / "skills"), "-o", "-"])
    assert [s["skill"] for s in json.loads(audited.stdout)["skills"]] == ["pdf-tools"]
    rows = CliRunner().invoke(cli, ["regressions", "show", str(skill), "-o", "-"])
    document = json.loads(rows.stdout)
    assert document["registry"].endswith("evals/pdf-tools/regressions.json")
    assert document["rows"][0]["protected"] is True  # the retained case is in the outside fixture
    tree = CliRunner().invoke(cli, ["regressions", "audit", str(repository / "skills"), "-o", "-"])
    assert [s["skill"] for s in json.loads(tree.stdout)["skills"]] == ["pdf-tools"]
