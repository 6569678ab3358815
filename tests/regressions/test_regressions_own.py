"""agentic-evals' own registry: structural proofs that put each bug back in a private copy."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from builders import REPO
from click.testing import CliRunner

from agentic_evals import codes
from agentic_evals.cli import cli
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.regressions.audit import needs_attention, show_skill
from agentic_evals.regressions.load import load_registry

FIXTURES = REPO / "fixtures"
SOURCES = sorted((REPO / "agentic_evals").rglob("*.py"))


def test_the_own_registry_holds_structural_proofs_of_three_regressions() -> None:
    loaded = load_registry(FIXTURES / "regressions.json")
    assert loaded.model is not None and loaded.findings == []
    records = loaded.model.regressions
    assert len(records) >= 3 and all(r.status == "ACTIVE" for r in records)
    assert {r.proof_form for r in records} == {"mutation", "patch"}
    cases = load_fixture(FIXTURES / "agentic_eval.json", strict=True).model
    assert cases is not None
    names = {case.name for case in cases.cases}
    for record in records:
        assert record.retained_case in names and record.retained_fixture == "agentic_eval.json"
        code = record.failure_code or ""
        assert code in codes.PROBLEM_CODES or code.startswith("/expected/")


def test_the_own_registry_is_established_as_recorded() -> None:
    outcome = show_skill(REPO)
    assert outcome.show is not None
    not_established = {r.regression_id: r.issues for r in outcome.show.rows if r.issues}
    # A retained case or proof that changed needs `./run.sh regressions verify . --write`.
    assert not_established == {} and not needs_attention(outcome.show.summary)


def digest(paths: list[Path]) -> str:
    hashed = hashlib.sha256()
    for path in paths:
        hashed.update(path.read_bytes())
    return hashed.hexdigest()


def test_the_verify_help_example_verifies_the_own_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    helped = CliRunner().invoke(cli, ["regressions", "verify", "--help"])
    found = re.search(r"Example: agentic-evals (regressions verify .*)", helped.output)
    assert found is not None, helped.output
    args = found.group(1).split()
    assert args == ["regressions", "verify", "."]
    monkeypatch.chdir(REPO)
    before = digest(SOURCES)
    ran = CliRunner().invoke(cli, args)
    assert ran.exit_code == 0, ran.output
    assert "verified 3, unproven 0 (unprotected 0), weak 0, skipped 0" in ran.output
    assert digest(SOURCES) == before  # every bug went into a private copy only


def test_the_proof_forms_sample_shows_each_form_and_its_verdict() -> None:
    outcome = show_skill(FIXTURES / "samples" / "proof-forms")
    assert outcome.show is not None and outcome.load.findings == []
    assert [(r.regression_id, r.proof, r.proof_state) for r in outcome.show.rows] == [
        ("total-minus", "mutation", "established"),
        ("total-times", "patch", "established"),
        ("echo-proof", "proof_command", "weak"),
    ]
