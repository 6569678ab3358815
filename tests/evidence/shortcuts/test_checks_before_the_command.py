"""Shortcuts: checks that pass before the command even runs (the null trial names them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, make_skill
from click.testing import CliRunner

from agentic_evals.cli import cli

RUN_SH = "#!/usr/bin/env bash\nmkdir -p out\necho '{\"ok\": true}' > out/result.json\necho done\n"
BAD_SH = '#!/usr/bin/env bash\necho "refused: unknown flag $1" >&2\nexit 2\n'
CLAIM = {
    "id": "demo.writes",
    "criticality": "critical",
    "claim_semantics": "protocol",
    "evidence_required": ["live_e2e"],
}


HONEST = case(
    "honest",
    command=["bash", "run.sh"],
    expected={"exit_code": 0, "artifacts": [{"path": "out/result.json", "exists": True}]},
    real_world=True,
    evidence_class="deterministic",
)
"""A real-world case that proves something, so that the gate lets the fixture run."""


def run(
    tmp_path: Path,
    live: dict[str, Any],
    files: dict[str, str] | None = None,
    *,
    honest: bool = True,
) -> Any:
    negative = case(
        "refuses",
        "negative",
        ["bash", "bad.sh", "--x"],
        {"exit_code": 2, "stderr_contains": ["refused: unknown flag --x"]},
    )
    cases = [live, negative, HONEST] if honest else [live, negative]
    document = fixture(cases, skill_root="..", capability_claims=[CLAIM])
    skill = make_skill(
        tmp_path / "skill",
        files={"run.sh": RUN_SH, "bad.sh": BAD_SH, **(files or {})},
        fixture=document,
    )
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli, ["run", str(skill / "fixtures" / "agentic_eval.json"), "-o", str(out)]
    )
    if not honest:
        return result, None
    assert out.exists(), result.output
    return result, json.loads(out.read_text())


def live_case(expected: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return case(
        "live",
        command=["bash", "run.sh"],
        expected={"exit_code": 0, **expected},
        real_world=True,
        evidence_class="live_e2e",
        supports_claims=["demo.writes"],
        **fields,
    )


@pytest.mark.parametrize(
    ("expected", "fields", "files", "pointer"),
    [
        ({"workspace_changes": {}}, {}, {}, "/cases/0/expected/workspace_changes"),
        ({"artifacts": [{"path": "SKILL.md", "exists": True}]}, {}, {}, None),
        ({"artifacts": [{"path": ".", "exists": True}]}, {}, {}, None),
        ({"artifacts": [{"path": "SKILL.md", "min_bytes": 10}]}, {}, {}, None),
        ({"artifacts": [{"path": "out/never.json", "absent": True}]}, {}, {}, None),
        ({"stdout_excludes": ["status: degraded"]}, {}, {}, None),
        ({}, {"readback": True}, {}, "/cases/0/readback"),
        # A file named after the claim, committed in the repository.
        (
            {"artifacts": [{"path": "out/demo.writes.json", "exists": True}]},
            {},
            {"out/demo.writes.json": "{}\n"},
            None,
        ),
    ],
)
def test_a_check_that_passes_before_the_command_runs_is_named_and_proves_nothing(
    tmp_path: Path,
    expected: dict[str, Any],
    fields: dict[str, Any],
    files: dict[str, str],
    pointer: str | None,
) -> None:
    result, report = run(tmp_path, live_case(expected, **fields), files)
    live = report["cases"][0]
    key = next(iter(expected), None)
    want = pointer or f"/cases/0/expected/{key}/0"
    assert live["outcome"] == "PASS"  # the command did what the checks ask...
    assert live["vacuous_checks"] == [want] and live["weak"] is True  # ...which proves nothing
    assert live["evidence_disqualifiers"] == ["LIVE_NO_READBACK"]
    named = [(f["code"], f["pointer"]) for f in report["evidence_findings"]]
    assert named == [("VACUOUS_ORACLE", want)]
    claim = report["capability_readiness"]["claims"][0]
    assert claim["verdict"] != "PROVEN"
    assert "NO_FAILING_ORACLE" in claim["evidence"][0]["ineligible"]
    assert report["readiness"] != "READY" and result.exit_code == 1
    assert f"VACUOUS_ORACLE {want}" in result.output
    assert "to be READY: prove claim demo.writes (live_e2e)" in result.output


def test_the_same_case_with_a_check_the_command_must_make_true_proves_the_claim(
    tmp_path: Path,
) -> None:
    readback = {"path": "out/result.json", "json_pointer": "/ok", "equals": True}
    expected = {"artifacts": [readback, {"path": "SKILL.md", "exists": True}]}
    result, report = run(tmp_path, live_case(expected))
    live = report["cases"][0]
    # The vacuous check beside a real one is still named, but the case is not weak.
    assert live["vacuous_checks"] == ["/cases/0/expected/artifacts/1"] and not live["weak"]
    assert live["live_qualified"] is True
    assert report["capability_readiness"]["claims"][0]["verdict"] == "PROVEN"
    assert report["readiness"] == "READY" and result.exit_code == 0, result.output


def test_on_the_shared_tree_the_tree_is_read_before_the_command_runs(tmp_path: Path) -> None:
    readback = {"path": "out/result.json", "exists": True}
    live = live_case({"artifacts": [readback]}, isolation="none")
    result, report = run(tmp_path, live)
    # Trial 1 wrote out/result.json into the shared tree; trial 2's null trial saw it, but
    # trial 1's did not: the check fails on a null trial, it is no vacuous check.
    trials = report["cases"][0]["trials"]
    assert [t["null_trial_failures"] for t in trials] == [["/expected/artifacts/0"], []]
    assert report["cases"][0]["vacuous_checks"] == [] and result.exit_code == 0, result.output
    # Left over from that run, the file makes the same checks vacuous before the next one:
    # the gate reads the tree as it is, and no real-world case proves anything any more.
    fixture_path = tmp_path / "skill" / "fixtures" / "agentic_eval.json"
    second = CliRunner().invoke(cli, ["run", str(fixture_path)])
    assert second.exit_code == 2
    assert "'honest' proves nothing: every check passes on the null trial" in second.output


def test_a_fixture_whose_only_real_world_case_is_vacuous_is_rejected_before_it_runs(
    tmp_path: Path,
) -> None:
    result, _ = run(tmp_path, live_case({"workspace_changes": {}}), honest=False)
    assert result.exit_code == 2
    assert "AE-SLOP-NO-REAL-WORLD" in result.output
    assert "every check passes on the null trial" in result.output
