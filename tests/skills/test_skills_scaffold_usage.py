"""Scaffolds of script skills: one usage case per program, and scaffolds in an evals tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import make_skill
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.contract.models import Case
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.skills import usage
from agentic_evals.skills.apply import apply_scaffolds
from agentic_evals.skills.audit import audit_skills
from agentic_evals.skills.scaffold import build_scaffold

ARGPARSE = 'import argparse\nargparse.ArgumentParser(prog="fetch").parse_args()\n'
USAGE_ON_STDERR = '#!/bin/sh\necho "Usage: $0 FILE" >&2\nexit 64\n'
QUIET = "value = 1\n"
# A program that writes beside itself, into the skill and into its cwd when run.
LITTERING = (
    "import pathlib, sys\n"
    "here = pathlib.Path(sys.argv[0]).resolve().parent\n"
    "(here / 'written.txt').write_text('x')\n"
    "pathlib.Path('cwd-written.txt').write_text('x')\n"
    "print('usage: litter')\n"
)
SCRIPTS = {"scripts/fetch.py": ARGPARSE, "scripts/conv.sh": USAGE_ON_STDERR, "scripts/q.py": QUIET}


def usage_table(cases: list[Case]) -> list[tuple[str, list[str], int, list[str], list[str], bool]]:
    return [
        (
            c.name,
            c.command,
            c.expected.exit_code,
            c.expected.stdout_contains,
            c.expected.stderr_contains,
            c.required,
        )
        for c in cases
    ]


def assert_wiring_passes(result: Result, report: Path) -> None:
    """Every case of a scaffold run passed, yet the run is not READY: a scaffold is wiring only."""
    document = json.loads(report.read_text())
    assert {case["outcome"] for case in document["cases"]} == {"PASS"}, result.output
    assert (document["case_readiness"], document["readiness"]) == ("READY", "NOT_ESTABLISHED")
    assert "scaffold fixture" in document["readiness_limit"]
    assert result.exit_code == 1, result.output


def test_a_skill_with_three_scripts_gets_three_usage_cases(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "tool", files=SCRIPTS)
    fixture = build_scaffold(skill).fixture
    assert usage_table(fixture.cases) == [
        (
            "usage-scripts-conv.sh",
            ["../scripts/conv.sh", "--help"],
            64,
            [],
            ["Usage: ../scripts/conv.sh FILE"],
            True,
        ),
        ("usage-scripts-fetch.py", ["python3", "../scripts/fetch.py", "--help"], 0,
         ["usage: fetch [-h]"], [], True),
        ("usage-scripts-q.py", ["python3", "../scripts/q.py", "--help"], 0, [], [], True),
    ]  # fmt: skip
    assert fixture.eval_kind == "scaffold"
    quiet = fixture.cases[2].description or ""
    assert "printed nothing" in quiet and "only its exit code" in quiet
    assert "exited 64" in (fixture.cases[0].description or "")
    assert all("TODO" not in (case.description or "") for case in fixture.cases)


def test_usage_cases_pass_the_gates_and_every_one_passes(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "tool", files=SCRIPTS)
    written = CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    assert written.exit_code == 0, written.output
    path = skill / "fixtures" / "agentic_eval.json"
    loaded = load_fixture(path, gates=True)
    assert loaded.ok and loaded.findings == []
    report = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(report)])
    assert_wiring_passes(result, report)


def test_a_changed_usage_line_fails_its_case(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "tool", files={"scripts/conv.sh": USAGE_ON_STDERR})
    CliRunner().invoke(cli, ["scaffold-fixture", str(skill)])
    (skill / "scripts" / "conv.sh").write_text('#!/bin/sh\necho "Usage: $0 IN OUT" >&2\nexit 64\n')
    path = skill / "fixtures" / "agentic_eval.json"
    report = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(report)])
    assert result.exit_code == 1
    problems = json.loads(report.read_text())["cases"][0]["problems"]
    assert "STDERR_MISSING" in {problem["code"] for problem in problems}


def test_probing_writes_nothing_into_the_skill(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "tool", files={"scripts/litter.py": LITTERING})
    before = sorted(str(p.relative_to(skill)) for p in skill.rglob("*"))
    (case,) = build_scaffold(skill).fixture.cases
    assert case.expected.stdout_contains == ["usage: litter"]
    assert sorted(str(p.relative_to(skill)) for p in skill.rglob("*")) == before


def test_a_linked_fixtures_folder_is_never_written_through_by_a_probe(tmp_path: Path) -> None:
    outside = tmp_path / "shared-fixtures"
    outside.mkdir()
    skill = make_skill(tmp_path, "tool", files={"scripts/litter.py": LITTERING})
    (skill / "fixtures").symlink_to(outside)
    (case,) = build_scaffold(skill, tmp_path / "out" / "f.json").fixture.cases
    assert case.expected.stdout_contains == ["usage: litter"]
    # From the default place, fixtures/, which links outside: the probe runs in a real folder
    # of the copy (from the linked one, ../scripts would not even be found).
    (default,) = build_scaffold(skill).fixture.cases
    assert default.command == ["python3", "../scripts/litter.py", "--help"]
    assert default.expected.stdout_contains == ["usage: litter"] and default.required
    assert list(outside.iterdir()) == []
    assert not (skill / "scripts" / "written.txt").exists()


def test_a_hanging_script_gets_an_honest_optional_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(usage, "PROBE_TIMEOUT", 0.5)
    skill = make_skill(tmp_path, "tool", files={"scripts/wait.py": "import time\ntime.sleep(30)\n"})
    (case,) = build_scaffold(skill).fixture.cases
    assert case.required is False and case.expected.exit_code == 0
    assert case.expected.stdout_contains == [] and case.expected.stderr_contains == []
    assert "did not exit within 0.5 s" in (case.description or "")
    assert "not required" in (case.description or "")


def test_a_script_with_a_traceback_is_not_pinned_to_its_failure(tmp_path: Path) -> None:
    skill = make_skill(tmp_path, "tool", files={"scripts/b.py": "import no_such_module_here\n"})
    (case,) = build_scaffold(skill).fixture.cases
    assert case.required is False and case.expected.exit_code == 0
    assert "Traceback (most recent call last)" in case.expected.stderr_excludes
    assert "ModuleNotFoundError" in (case.description or "")


def test_run_and_sanity_keep_their_own_cases_and_get_no_usage_case(tmp_path: Path) -> None:
    files = {"run.sh": "", "sanity.sh": "", "scripts/conv.sh": USAGE_ON_STDERR}
    skill = make_skill(tmp_path, "tool", files=files)
    names = [case.name for case in build_scaffold(skill).fixture.cases]
    assert names == [
        "sanity-passes",
        "help-exits-0",
        "unknown-flag-is-rejected",
        "usage-scripts-conv.sh",
    ]


def evals_layout(tmp_path: Path) -> tuple[Path, Path]:
    skills = tmp_path / "skills"
    make_skill(skills, "tool", files=SCRIPTS)
    make_skill(skills, "notes")
    evals = tmp_path / "evals"
    evals.mkdir()
    return skills, evals


def test_apply_scaffolds_writes_into_the_evals_tree_never_the_skill(tmp_path: Path) -> None:
    skills, evals = evals_layout(tmp_path)
    receipt = apply_scaffolds(skills, write=True)
    assert receipt.created == ["tool"]  # notes is only prose
    assert receipt.fixture_path == f"{evals}/<skill>/agentic_eval.json"
    assert not list(skills.rglob("agentic_eval*"))
    path = evals / "tool" / "agentic_eval.json"
    document = json.loads(path.read_text())
    assert document["skill_root"] == "../../skills/tool"
    assert [case["command"][:2] for case in document["cases"]] == [
        ["scripts/conv.sh", "--help"],
        ["python3", "scripts/fetch.py"],
        ["python3", "scripts/q.py"],
    ]
    postures = {skill.skill: skill.eval_posture for skill in audit_skills(skills).skills}
    assert postures == {"notes": "prose_only", "tool": "agentic_fixture"}
    again = apply_scaffolds(skills, write=True)
    assert again.created == []
    assert {item.skill: item.reason for item in again.skipped}["tool"] == (
        "has an agentic fixture (../../evals/tool/agentic_eval.json)"
    )
    forced = apply_scaffolds(skills, write=True, force=True)
    assert forced.overwritten == ["tool"]
    report = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(report)])
    assert_wiring_passes(result, report)


def test_scaffold_fixture_uses_the_evals_tree_given_or_beside_the_skills(tmp_path: Path) -> None:
    skills, evals = evals_layout(tmp_path)
    beside = CliRunner().invoke(cli, ["scaffold-fixture", str(skills / "tool")])
    assert beside.exit_code == 0, beside.output
    assert (evals / "tool" / "agentic_eval.json").is_file()
    assert not (skills / "tool" / "fixtures").exists()
    elsewhere = tmp_path / "other-evals"
    elsewhere.mkdir()
    arguments = ["scaffold-fixture", str(skills / "notes"), "--evals", str(elsewhere)]
    given = CliRunner().invoke(cli, arguments)
    assert given.exit_code == 0, given.output
    path = elsewhere / "notes" / "agentic_eval.json"
    written = json.loads(path.read_text())
    assert written["skill_root"] == "../../skills/notes"
    assert written["cases"][0]["expected"]["artifacts"][0]["path"] == "SKILL.md"
    assert not (evals / "notes").exists()
    static = CliRunner().invoke(cli, ["run", str(path), "-o", str(tmp_path / "r.json")])
    assert_wiring_passes(static, tmp_path / "r.json")


def test_scaffold_fixture_refuses_a_skill_with_a_fixture_in_either_place(tmp_path: Path) -> None:
    skills, evals = evals_layout(tmp_path)
    CliRunner().invoke(cli, ["scaffold-fixture", str(skills / "tool")])
    target = evals / "tool" / "agentic_eval.json"
    target.write_text(target.read_text().replace('"trials": 2', '"trials": 3'))
    before = target.read_bytes()
    again = CliRunner().invoke(cli, ["scaffold-fixture", str(skills / "tool")])
    assert again.exit_code == 2
    assert "../../evals/tool/agentic_eval.json exists; pass --force" in again.stderr
    assert target.read_bytes() == before
    own = make_skill(tmp_path / "plain", "own", files={"fixtures/agentic_eval_x.json": "{}"})
    refused = CliRunner().invoke(cli, ["scaffold-fixture", str(own)])
    assert refused.exit_code == 2 and "fixtures/agentic_eval_x.json exists" in refused.stderr
    assert not (own / "fixtures" / "agentic_eval.json").exists()


def test_an_evals_option_that_names_no_folder_is_refused(tmp_path: Path) -> None:
    skills, _ = evals_layout(tmp_path)
    for command in ("scaffold-fixture", "apply-scaffolds"):
        target = skills / "tool" if command == "scaffold-fixture" else skills
        result = CliRunner().invoke(cli, [command, str(target), "--evals", str(tmp_path / "no")])
        assert result.exit_code == 2 and "--evals" in result.stderr


def test_apply_scaffolds_cli_writes_into_the_evals_tree_given(tmp_path: Path) -> None:
    skills, beside = evals_layout(tmp_path)
    given = tmp_path / "kept" / "evals"
    given.mkdir(parents=True)
    arguments = ["apply-scaffolds", str(skills), "--write", "--evals", str(given)]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.output
    receipt = json.loads(result.stdout)
    assert receipt["created"] == ["tool"]
    assert receipt["fixture_path"] == f"{given}/<skill>/agentic_eval.json"
    written = json.loads((given / "tool" / "agentic_eval.json").read_text())
    assert written["skill_root"] == "../../../skills/tool"
    assert list(beside.iterdir()) == [] and not list(skills.rglob("agentic_eval*"))
    audit = CliRunner().invoke(cli, ["audit-skills", str(skills), "--evals", str(given), "-o", "-"])
    postures = {s["skill"]: s["eval_posture"] for s in json.loads(audit.stdout)["skills"]}
    assert postures["tool"] == "agentic_fixture"
