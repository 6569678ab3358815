"""scaffold-fixture: a first honest fixture; never overwrites without --force."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_skill
from click.testing import CliRunner

from agentic_evals.cli import cli
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.skills.scaffold import ScaffoldError, build_scaffold


def case_table(skill_dir: Path) -> list[tuple[str, str, list[str], int, bool]]:
    fixture = build_scaffold(skill_dir).fixture
    return [(c.name, c.type, c.command, c.expected.exit_code, c.required) for c in fixture.cases]


def test_sanity_only(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"sanity.sh": "exit 0\n"})
    assert case_table(skill) == [("sanity-passes", "positive", ["bash", "../sanity.sh"], 0, True)]


def test_run_only_has_a_required_help_case_and_an_optional_negative(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"run.sh": ""})
    assert case_table(skill) == [
        ("help-exits-0", "positive", ["bash", "../run.sh", "--help"], 0, True),
        (
            "unknown-flag-is-rejected",
            "negative",
            ["bash", "../run.sh", "--agentic-evals-no-such-flag"],
            2,
            False,
        ),
    ]


def test_sanity_and_run(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"run.sh": "", "sanity.sh": ""})
    table = case_table(skill)
    assert [(name, required) for name, _, _, _, required in table] == [
        ("sanity-passes", True),
        ("help-exits-0", False),
        ("unknown-flag-is-rejected", False),
    ]


def test_no_entrypoint_gets_a_static_check_run_by_agentic_evals(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "notes")
    (case,) = build_scaffold(skill).fixture.cases
    assert case.name == "static-contract" and case.command == ["test", "-r", "../SKILL.md"]
    checks = case.expected.artifacts
    assert {c.path for c in checks} == {"../SKILL.md"}
    assert [c.content_regex is not None for c in checks] == [True, True, True]


@pytest.mark.parametrize(
    "files", [{}, {"run.sh": ""}, {"sanity.sh": ""}, {"run.sh": "", "sanity.sh": ""}]
)
def test_every_scaffold_is_honest_and_validates_with_the_gates_on(
    tmp_path: Path, files: dict[str, str]
) -> None:
    skill = make_skill(tmp_path, "s", files=files)
    result = CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    assert result.exit_code == 0, result.output
    path = skill / "fixtures" / "agentic_eval.json"
    loaded = load_fixture(path, gates=True)
    assert loaded.ok and loaded.findings == []
    fixture = loaded.model
    assert fixture is not None
    assert (fixture.version, fixture.eval_kind, fixture.skill) == (2, "scaffold", "s")
    assert fixture.trials >= 2 and fixture.live is False
    assert not any(case.real_world for case in fixture.cases)
    assert all(case.evidence_class == "deterministic" for case in fixture.cases)
    assert list(json.loads(path.read_text()))[-1] == "cases"


def test_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"run.sh": "", "fixtures/agentic_eval.json": "mine"})
    target = skill / "fixtures" / "agentic_eval.json"
    before = target.read_bytes()
    result = CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    assert result.exit_code == 2
    assert "exists; pass --force" in result.stderr
    assert target.read_bytes() == before
    forced = CliRunner().invoke(cli, ["scaffold-fixture", str(skill), "--force"])
    assert forced.exit_code == 0
    assert json.loads(target.read_text())["eval_kind"] == "scaffold"


def test_output_elsewhere_keeps_commands_relative_to_the_fixture(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"sanity.sh": ""})
    output = tmp_path / "elsewhere" / "f.json"
    result = CliRunner().invoke(cli, ["scaffold-fixture", str(skill), "-o", str(output)])
    assert result.exit_code == 0
    assert json.loads(output.read_text())["cases"][0]["command"] == ["bash", "../s/sanity.sh"]
    stdout = CliRunner().invoke(cli, ["scaffold-fixture", str(skill), "-o", "-"])
    assert json.loads(stdout.stdout)["cases"][0]["command"] == ["bash", "../sanity.sh"]
    assert not (skill / "fixtures").exists()


def test_not_a_skill_folder(tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError):
        build_scaffold(tmp_path)
    result = CliRunner().invoke(cli, ["scaffold-fixture", str(tmp_path / "absent")])
    assert result.exit_code == 2 and "not a skill folder" in result.stderr


def test_an_entrypoint_scaffold_passes_its_cases_but_is_never_ready(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "s", files={"sanity.sh": "echo sane\n"})
    CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    report = tmp_path / "report.json"
    fixture = skill / "fixtures" / "agentic_eval.json"
    result = CliRunner().invoke(cli, ["run", str(fixture), "-o", str(report)])
    assert result.exit_code == 1, result.output
    judged = json.loads(report.read_text())
    assert (judged["readiness"], judged["case_readiness"]) == ("NOT_ESTABLISHED", "READY")


def test_the_static_scaffold_is_judged_by_agentic_evals_own_oracles(tmp_path: Path) -> None:
    front = "name: notes\ndescription: Keeps notes.\n"
    skill = make_skill(tmp_path / "tree", "notes", front)
    CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    fixture = skill / "fixtures" / "agentic_eval.json"
    report = tmp_path / "report.json"
    ready = CliRunner().invoke(cli, ["run", str(fixture), "-o", str(report)])
    assert ready.exit_code == 1, ready.output  # a scaffold is never READY...
    assert json.loads(report.read_text())["case_readiness"] == "READY"  # ...its cases passed
    (skill / "SKILL.md").write_text("# notes\n\nno front matter here\n")
    broken = CliRunner().invoke(cli, ["run", str(fixture), "-o", str(report)])
    assert broken.exit_code == 1
    problems = json.loads(report.read_text())["cases"][0]["problems"]
    assert {p["code"] for p in problems} == {"ARTIFACT_REGEX"}
    (skill / "SKILL.md").write_text("---\nname: notes\n---\n")
    no_description = CliRunner().invoke(cli, ["run", str(fixture), "-o", str(report)])
    assert no_description.exit_code == 1
