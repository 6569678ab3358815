"""READY without evidence, by the kind of run: scaffold, runner_selftest, --case and --shard.

Each test runs a small skill through the real CLI and checks that a run
which cannot decide is never READY, and says why in its summary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builders import case, fixture, make_skill
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.judge.shard import SHARD_VARIABLES

RUN_SH = (
    "#!/usr/bin/env bash\n"
    '[ "$1" = --bad ] && { echo "bad flag: $1" >&2; exit 2; }\n'
    "printf 'a\\nb\\nc\\n' | wc -l | xargs printf 'counted %s rows\\n'\n"
)
"""Counts rows with ``wc``, so it does something: a fixed ``echo`` of the line would not."""
COUNTS = case(
    "counts",
    command=["bash", "../run.sh"],
    expected={"exit_code": 0, "stdout_contains": ["counted 3 rows"]},
    real_world=True,
    evidence_class="deterministic",
)
REFUSES = case(
    "refuses",
    "negative",
    ["bash", "../run.sh", "--bad"],
    {"exit_code": 2, "stderr_contains": ["bad flag: --bad"]},  # its reason, no generic marker
)
EXTRA = case("counts-again", command=["bash", "../run.sh"], expected={"exit_code": 0})


def invoke(*args: str) -> Result:
    env: dict[str, str | None] = {name: None for name in SHARD_VARIABLES}
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def skill_fixture(tmp_path: Path, **top: Any) -> str:
    document = fixture([COUNTS, REFUSES, EXTRA], skill="counter", **top)
    skill = make_skill(tmp_path / "counter", files={"run.sh": RUN_SH}, fixture=document)
    return str(skill / "fixtures" / "agentic_eval.json")


def run(*args: str, tmp_path: Path) -> tuple[Result, Any]:
    output = tmp_path / "report.json"
    result = invoke("run", *args, "-o", str(output))
    return result, json.loads(output.read_text())


def test_the_full_run_of_this_skill_is_ready(tmp_path: Path) -> None:
    result, report = run(skill_fixture(tmp_path), tmp_path=tmp_path)
    assert (result.exit_code, report["readiness"], report["readiness_limit"]) == (0, "READY", None)


def test_a_scaffold_is_never_ready(tmp_path: Path) -> None:
    result, report = run(skill_fixture(tmp_path, eval_kind="scaffold"), tmp_path=tmp_path)
    assert all(c["outcome"] == "PASS" for c in report["cases"])
    assert (report["readiness"], report["case_readiness"]) == ("NOT_ESTABLISHED", "READY")
    assert result.exit_code == 1
    assert "scaffold fixture: wiring only, never READY" in result.stdout
    assert "why: a scaffold fixture checks wiring only and is never READY" in result.stdout
    reported = invoke("run", skill_fixture(tmp_path, eval_kind="scaffold"), "--report-only")
    assert reported.exit_code == 0


def test_a_runner_selftest_says_the_gates_were_skipped(tmp_path: Path) -> None:
    path = skill_fixture(tmp_path, eval_kind="runner_selftest", trials=1)  # a gate would refuse
    result, report = run(path, tmp_path=tmp_path)
    assert (result.exit_code, report["readiness"]) == (0, "READY")
    assert "runner_selftest fixture: the anti-slop and compliance gates were skipped" in (
        result.stdout
    )


def test_case_naming_every_case_is_not_established_but_exits_0(tmp_path: Path) -> None:
    path = skill_fixture(tmp_path)
    names = ("--case", "counts", "--case", "refuses", "--case", "counts-again")
    result, report = run(path, *names, tmp_path=tmp_path)
    assert report["focused_cases"] == ["counts", "refuses", "counts-again"]
    assert report["readiness"] == "NOT_ESTABLISHED"
    assert result.exit_code == 0  # every selected case passed: the edit loop stays quick
    assert "focused run of 3 case(s) (--case): the gates were skipped" in result.stdout
    assert "readiness: NOT_ESTABLISHED (exit 0)" in result.stdout


def test_a_focused_run_with_a_failing_case_exits_1(tmp_path: Path) -> None:
    broken = case("broken", command=["bash", "../run.sh", "--bad"], expected={"exit_code": 0})
    document = fixture([COUNTS, REFUSES, broken], skill="counter")
    skill = make_skill(tmp_path / "counter", files={"run.sh": RUN_SH}, fixture=document)
    path = str(skill / "fixtures" / "agentic_eval.json")
    result, report = run(path, "--case", "counts", "--case", "broken", tmp_path=tmp_path)
    assert result.exit_code == 1 and report["readiness"] == "NOT_ESTABLISHED"
    # An optional failing case still fails a focused run: every selected case must pass.
    optional = {**broken, "required": False}
    document = fixture([COUNTS, REFUSES, optional], skill="counter")
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(document))
    assert invoke("run", path, "--case", "counts", "--case", "broken").exit_code == 1


def test_a_shard_says_which_cases_it_skipped_and_is_never_ready(tmp_path: Path) -> None:
    result, report = run(skill_fixture(tmp_path), "--shard", "2/2", tmp_path=tmp_path)
    assert [c["name"] for c in report["cases"]] == ["refuses"]
    assert (report["readiness"], report["case_readiness"]) == ("NOT_ESTABLISHED", "READY")
    assert result.exit_code == 0  # its own required cases passed
    assert (
        "shard 2 of 2: never READY for the fixture, only merge of all 2 shards decides; "
        "skipped 2 of 3 case(s): counts, counts-again" in result.stdout
    )


def test_merging_focused_runs_of_every_case_is_refused(tmp_path: Path) -> None:
    path = skill_fixture(tmp_path)
    reports = []
    for name in ("counts", "refuses", "counts-again"):
        reports.append(str(tmp_path / f"{name}.json"))
        assert invoke("run", path, "--case", name, "-o", reports[-1]).exit_code == 0
    result = invoke("merge", *reports, "-o", str(tmp_path / "merged.json"))
    assert result.exit_code == 2
    assert f"{reports[0]}: /focused_cases: a focused run (--case) cannot be merged" in result.stderr
    assert not (tmp_path / "merged.json").exists()


def test_a_misspelled_oracle_is_a_load_error_not_a_warning(tmp_path: Path) -> None:
    misspelled = {**COUNTS, "expected": {"exit_code": 0, "stdout_contain": ["counted"]}}
    artifact = {
        **EXTRA,
        "expected": {"exit_code": 0, "artifacts": [{"path": "../run.sh", "contains": "echo"}]},
    }
    document = fixture([misspelled, REFUSES, artifact], skill="counter")
    skill = make_skill(tmp_path / "counter", files={"run.sh": RUN_SH}, fixture=document)
    result = invoke("run", str(skill / "fixtures" / "agentic_eval.json"))
    assert result.exit_code == 2
    assert (
        "/cases/0/expected/stdout_contain AE-SCHEMA-UNKNOWN error: unknown key 'stdout_contain'"
        in result.stderr
    )
    assert "/cases/2/expected/artifacts/0/contains AE-SCHEMA-UNKNOWN error" in result.stderr
    # Elsewhere an unknown key stays a warning.
    document = fixture([COUNTS, REFUSES, {**EXTRA, "note": "kept"}], skill="counter")
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(document))
    result = invoke("run", str(skill / "fixtures" / "agentic_eval.json"))
    assert result.exit_code == 0 and "/cases/2/note AE-SCHEMA-UNKNOWN warning" in result.stderr


def test_a_shard_with_a_failing_required_case_exits_1(tmp_path: Path) -> None:
    broken = case("broken", command=["bash", "../run.sh", "--bad"], expected={"exit_code": 0})
    document = fixture([COUNTS, REFUSES, broken], skill="counter")
    skill = make_skill(tmp_path / "counter", files={"run.sh": RUN_SH}, fixture=document)
    path = str(skill / "fixtures" / "agentic_eval.json")
    result, report = run(path, "--shard", "1/2", tmp_path=tmp_path)  # counts and broken
    assert report["case_readiness"] != "READY" and report["readiness"] != "READY"
    assert result.exit_code == 1
    assert invoke("run", path, "--shard", "2/2").exit_code == 0  # refuses alone: its cases pass
