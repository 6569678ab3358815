"""apply-scaffolds: dry run by default, only missing fixtures, --limit, --force, receipt."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from builders import REPO, make_skill
from click.testing import CliRunner
from skills_helpers import sound_fixture

from agentic_evals.cli import cli
from agentic_evals.skills.apply import apply_scaffolds
from agentic_evals.skills.models import ScaffoldReceipt

SCAFFOLD = "fixtures/agentic_eval.json"


def reasons(receipt: ScaffoldReceipt) -> dict[str, str]:
    return {item.skill: item.reason for item in receipt.skipped}


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    make_skill(tmp_path, "a", files={"run.sh": ""})
    receipt = apply_scaffolds(tmp_path)
    assert receipt.would_create == ["a"] and receipt.created == [] and not receipt.write
    assert not (tmp_path / "a" / SCAFFOLD).exists()


def test_only_eligible_skills_get_a_scaffold(tmp_path: Path) -> None:
    make_skill(tmp_path, "missing", files={"run.sh": ""})
    make_skill(tmp_path, "has", files={"run.sh": "", SCAFFOLD: sound_fixture("has")})
    make_skill(tmp_path, "exempt", "eval_not_required: docs only\n")
    legacy = json.dumps({"version": 1, "skill": "old", "cases": []})
    make_skill(tmp_path, "old", files={"fixtures/eval.json": legacy})
    make_skill(
        tmp_path, "agentic-evals", files={"fixtures/agentic_eval_d.json": sound_fixture("d")}
    )
    make_skill(tmp_path, "d", files={"run.sh": ""})
    receipt = apply_scaffolds(tmp_path, write=True)
    assert receipt.created == ["missing"]
    assert reasons(receipt) == {
        "agentic-evals": "has an agentic fixture (fixtures/agentic_eval_d.json)",
        "d": "evaluated by an eval skill's fixture (agentic-evals/fixtures/agentic_eval_d.json)",
        "exempt": "exempt: eval_not_required: docs only",
        "has": f"has an agentic fixture ({SCAFFOLD})",
        "old": "has a legacy fixtures/eval.json (version 1): migrate it instead",
    }


def test_limit(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        make_skill(tmp_path, name, files={"run.sh": ""})
    receipt = apply_scaffolds(tmp_path, write=True, limit=2)
    assert receipt.created == ["a", "b"]
    assert reasons(receipt) == {"c": "--limit 2 reached"}
    assert apply_scaffolds(tmp_path, write=True, limit=2).created == ["c"]


def test_force_replaces_scaffolds_but_never_hand_written_fixtures(tmp_path: Path) -> None:
    make_skill(tmp_path, "scaffolded", files={"run.sh": ""})
    make_skill(tmp_path, "hand", files={"run.sh": "", SCAFFOLD: sound_fixture("hand")})
    apply_scaffolds(tmp_path, write=True)
    stale = tmp_path / "scaffolded" / SCAFFOLD
    stale.write_text(stale.read_text().replace('"trials": 2', '"trials": 5'))
    hand_bytes = (tmp_path / "hand" / SCAFFOLD).read_bytes()
    assert apply_scaffolds(tmp_path, write=True).created == []
    receipt = apply_scaffolds(tmp_path, write=True, force=True)
    assert receipt.created == receipt.overwritten == ["scaffolded"]
    assert json.loads(stale.read_text())["trials"] == 2
    assert (tmp_path / "hand" / SCAFFOLD).read_bytes() == hand_bytes
    assert "not a scaffold" in reasons(receipt)["hand"]


def test_cli_receipt_on_stdout_and_in_a_file(tmp_path: Path) -> None:
    schema = json.loads((REPO / "schemas" / "scaffold_receipt.schema.json").read_text())
    root = tmp_path / "skills"
    make_skill(root, "a", files={"sanity.sh": ""})
    dry = CliRunner().invoke(cli, ["apply-scaffolds", str(root)])
    assert dry.exit_code == 0
    document = json.loads(dry.stdout)
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["would_create"] == ["a"] and document["created"] == []
    receipt = tmp_path / "receipt.json"
    wrote = CliRunner().invoke(cli, ["apply-scaffolds", str(root), "--write", "-o", str(receipt)])
    assert wrote.exit_code == 0
    assert json.loads(receipt.read_text())["created"] == ["a"]
    assert "created 1: a" in wrote.stdout
    again = CliRunner().invoke(cli, ["apply-scaffolds", str(root), "--write"])
    assert json.loads(again.stdout)["created"] == []


def test_cli_bad_root(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["apply-scaffolds", str(tmp_path / "absent")])
    assert result.exit_code == 2
