"""Defect 19: ``regressions verify --write`` when the registry is removed while proofs run.

The command says the registry is gone, exits 2 and writes nothing: no
registry is recreated, no temporary file is left, no verify document is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import cli
from regression_helpers import structural, tally_fixture, tally_skill


@pytest.mark.parametrize("how", ["removed", "replaced by a FIFO"])
def test_d19_a_registry_removed_while_proofs_run_is_reported_and_nothing_is_written(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only a trial on the shared tree (isolation: none) can reach the user's registry.
    action = (
        "rm regressions.json"
        if how == "removed"
        else "rm regressions.json; mkfifo regressions.json"
    )
    removing = tally_fixture(
        command=["bash", "-c", f"{action}; bash ../tally.sh 2 3"], isolation="none"
    )
    skill = tally_skill(tmp_path, structural(), name="removing", fixture=removing)
    out = tmp_path / "verify.json"
    ended = cli(capsys, "regressions", "verify", skill, "--write", "-o", out)
    assert ended.code == 2, ended
    folder = skill / "fixtures"
    assert "regressions.json" in ended.err and "it was not written" in ended.err
    assert not out.exists()
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["agentic_eval.json"] + (["regressions.json"] if how != "removed" else [])
