"""The real skill tree (86 skills from grahama1970/agent-skills): audit, scaffold, re-audit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from builders import SKILLS_TREE as CORPUS
from click.testing import CliRunner

from agentic_evals.cli import cli
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.skills.apply import apply_scaffolds
from agentic_evals.skills.audit import audit_skills
from agentic_evals.skills.models import POSTURES

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")

ALL_ZERO_POSTURES = dict.fromkeys(POSTURES, 0)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    copy = tmp_path / "skills"
    shutil.copytree(CORPUS, copy, symlinks=True)
    return copy


def test_corpus_audit_pins_its_summary() -> None:
    audit = audit_skills(CORPUS)
    summary = audit.summary
    assert summary.skills == 86
    assert (summary.ready, summary.not_ready, summary.errors, summary.warnings) == (0, 86, 114, 178)
    assert summary.postures == {**ALL_ZERO_POSTURES, "missing": 85, "prose_only": 1}
    assert {rule: n for rule, n in summary.rules.items() if n} == {
        "EVAL001": 85,
        "EVAL002": 85,  # not asked of the prose-only skill
        "EVAL004": 2,
        "EVAL009": 86,  # a top-level key the specification forbids (85 have `triggers`)
        "EVAL012": 34,  # 29 allowed-tools lists; metadata values that are no strings
    }
    assert {action: n for action, n in summary.actions.items() if n} == {
        "scaffold_fixture": 85,
        "evaluate_prose_with_a_harness": 1,
    }
    fenced = sorted(str(f.skill) for f in audit.findings if f.code == "EVAL004")
    assert fenced == ["consume-book", "consume-youtube"]
    (prose,) = [s for s in audit.skills if s.eval_posture == "prose_only"]
    assert prose.skill == "consume-music" and prose.runtime_surface == []
    triggers = [f for f in audit.findings if f.code == "EVAL009" and "'triggers'" in f.message]
    assert len(triggers) == 85 and all(f.severity == "warning" for f in triggers)


def test_cli_audit_of_the_corpus_exits_1(tmp_path: Path) -> None:
    output = tmp_path / "audit.json"
    result = CliRunner().invoke(cli, ["audit-skills", str(CORPUS), "-o", str(output)])
    assert result.exit_code == 1
    assert len(json.loads(output.read_text())["skills"]) == 86


def test_apply_scaffolds_write_then_nothing_left_to_create(tree: Path) -> None:
    dry = apply_scaffolds(tree)
    assert len(dry.would_create) == 85 and dry.created == []
    assert not list(tree.glob("*/fixtures/agentic_eval.json"))
    first = apply_scaffolds(tree, write=True)
    assert len(first.created) == 85 and first.failed == []
    assert [(s.skill, s.reason) for s in first.skipped] == [
        ("consume-music", "only prose, no program: command cases cannot evaluate it")
    ]
    fixtures = sorted(tree.glob("*/fixtures/agentic_eval.json"))
    assert len(fixtures) == 85
    for path in fixtures:
        result = load_fixture(path, gates=True)
        assert result.ok, (path, [f.render() for f in result.findings])
        assert result.model is not None and result.model.eval_kind == "scaffold"
        assert result.model.trials >= 2
    validate = CliRunner().invoke(cli, ["validate", *map(str, fixtures)])
    assert validate.exit_code == 0, validate.stderr
    second = apply_scaffolds(tree, write=True)
    assert second.created == [] and second.would_create == []
    assert len(second.skipped) == 86
    assert sum(s.reason.startswith("has an agentic fixture") for s in second.skipped) == 85
    after = audit_skills(tree).summary
    assert after.postures == {**ALL_ZERO_POSTURES, "agentic_fixture": 85, "prose_only": 1}
    # What is left is the front matter the specification refuses (allowed-tools lists).
    assert (after.errors, after.rules["EVAL012"], after.rules["EVAL007"]) == (29, 34, 85)


def test_a_516_skill_tree_audits_every_skill(tree: Path, tmp_path: Path) -> None:
    # How long it takes is a benchmark figure (benchmarks/bench.py, figure d), not a test.
    apply_scaffolds(tree, write=True)
    big = tmp_path / "big"
    big.mkdir()
    for copy in range(6):
        for skill in tree.iterdir():
            if skill.is_dir():
                shutil.copytree(skill, big / f"{skill.name}-{copy}", symlinks=True)
    audit = audit_skills(big)
    assert audit.summary.skills == 516 and audit.summary.postures["agentic_fixture"] == 510
