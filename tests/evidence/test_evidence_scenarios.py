"""Whole runs where what a case's checks can prove decides the verdict."""

from __future__ import annotations

from pathlib import Path

from builders import case, fixture, make_skill
from click.testing import CliRunner

from agentic_evals.cli import cli

RUN_SH = '#!/usr/bin/env bash\n[ "$1" = --bad ] && exit 2\necho done\n'


def test_an_empty_workspace_changes_assertion_proves_no_live_claim(tmp_path: Path) -> None:
    # A skill that only says "done", and a live case whose one check besides its exit
    # code is `workspace_changes: {}`, which asserts nothing: it must prove no live claim.
    live = case(
        "live-run",
        command=["bash", "run.sh"],  # in its workspace: a copy of the skill folder
        expected={"exit_code": 0, "workspace_changes": {}},
        real_world=True,
        evidence_class="live_e2e",
        supports_claims=["writes"],
        workspace={"input": ".."},
    )
    refuses = case("refuses", "negative", ["bash", "../run.sh", "--bad"], {"exit_code": 2})
    claim = {
        "id": "writes",
        "criticality": "critical",
        "claim_semantics": "protocol",
        "evidence_required": ["live_e2e"],
    }
    document = fixture([live, refuses], skill="skill", capability_claims=[claim])
    skill = make_skill(tmp_path / "skill", files={"run.sh": RUN_SH}, fixture=document)
    path = skill / "fixtures" / "agentic_eval.json"
    report_path = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(path), "-o", str(report_path)])
    # It passes on the null trial: the only real-world case proves nothing, so the gate
    # refuses the fixture before anything runs.
    assert result.exit_code == 2 and not report_path.exists()
    assert "AE-SLOP-NO-REAL-WORLD" in result.output
    assert "'live-run' proves nothing: every check passes on the null trial" in result.output


def test_coverage_and_qualification_agree_on_an_empty_assertion(tmp_path: Path) -> None:
    from agentic_evals.contract.models import Fixture
    from agentic_evals.coverage.guards import case_facts
    from agentic_evals.evidence.facts import evidence_table

    skill = make_skill(tmp_path / "skill", files={"run.sh": "#!/bin/sh\necho done\n"})
    hollow = case(
        "hollow",
        command=["bash", "../run.sh"],
        expected={"exit_code": 0, "workspace_changes": {}},
        seams=["s"],
    )
    model = Fixture.model_validate(fixture([hollow], skill="skill"))
    folder = skill / "fixtures"
    folder.mkdir()
    (facts,) = evidence_table(model, folder).values()
    (covered,) = case_facts(model, folder, "fixtures/agentic_eval.json", "", [0])
    assert facts.readback_oracles == () and facts.failing_oracles == () == covered.oracles
    assert not facts.live_qualified and covered.weak_reasons == ("NO_FAILING_ORACLE",)
