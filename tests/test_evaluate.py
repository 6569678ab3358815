"""The run loop: trials, environment, redaction and report assembly."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.evaluation.evaluate import RunOptions, UnknownCaseError, evaluate
from agentic_evals.evidence.gates import load_fixture


def write(tmp_path: Path, cases: list[dict[str, Any]], trials: int = 2) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "fixture.json"
    document = {
        "version": 2,
        "skill": "probe",
        "eval_kind": "runner_selftest",
        "trials": trials,
        "cases": cases,
    }
    path.write_text(json.dumps(document))
    return path


def case(name: str, command: list[str], **expected: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": "positive",
        "command": command,
        "expected": {"exit_code": 0, **expected},
    }


def run(path: Path, **options: Any) -> Any:
    loaded = load_fixture(path)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


def test_secrets_are_redacted_in_the_report_but_oracles_see_raw_output(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    secret_case = case(
        "prints-secrets",
        ["bash", "-c", 'echo "api_key=sk-live-123456"; echo "value $SERVICE_TOKEN"'],
        stdout_contains=["sk-live-123456", "value hunter2-value"],
    )
    secret_case["env"] = {"SERVICE_TOKEN": "hunter2-value"}
    report = run(write(tmp_path, [secret_case]))
    assert report.readiness == "READY"
    stdout = report.cases[0].trials[0].stdout
    assert "sk-live-123456" not in stdout and "hunter2-value" not in stdout
    assert "[REDACTED]" in stdout
    assert_valid_report(json.loads(report.model_dump_json(by_alias=True)))


def test_trials_get_markers_and_the_users_virtual_environment(tmp_path: Path) -> None:
    probe = case(
        "env-probe",
        [
            "bash",
            "-c",
            'echo "$AGENTIC_EVALS_RUN_ID $AGENTIC_EVALS_CASE $AGENTIC_EVALS_TRIAL"'
            ' "[${VIRTUAL_ENV:-}]" "[$PATH]"',
        ],
    )
    probe["env"] = {"AGENTIC_EVALS_TRIAL": "forged"}
    report = run(
        write(tmp_path, [probe]),
        environ={"PATH": "/venv/bin:/usr/bin:/bin", "VIRTUAL_ENV": "/venv", "HOME": "/root"},
    )
    outputs = [t.stdout.strip() for t in report.cases[0].trials]
    # The user's virtual environment is the trials' too; the markers cannot be forged.
    assert outputs == [
        f"{report.run_id} env-probe {n} [/venv] [/venv/bin:/usr/bin:/bin]" for n in (1, 2)
    ]


def test_every_trial_runs_and_counts(tmp_path: Path) -> None:
    # Outside the skill tree: inside it, each trial writes to its own private view.
    counter = tmp_path / "count"
    report = run(
        write(tmp_path / "skill", [case("counts", ["bash", "-c", f"echo x >> {counter}"])], 3)
    )
    assert counter.read_text().count("x") == 3
    assert report.trial_count == 3
    assert report.cases[0].total_trials == 3
    assert report.metrics.pass_hat_k["counts"].k == 3


def test_flaky_case_fails_and_is_listed(tmp_path: Path) -> None:
    state = tmp_path / "state"  # outside the skill tree, so the second trial sees it
    flaky = case("alternates", ["bash", "-c", f"if [ -e {state} ]; then exit 1; fi; touch {state}"])
    report = run(write(tmp_path / "skill", [flaky]))
    assert [t.outcome for t in report.cases[0].trials] == ["PASS", "FAIL"]
    assert report.cases[0].outcome == "FAIL" and report.cases[0].flaky
    assert report.metrics.flaky_cases == ["alternates"]
    assert report.readiness == "USABLE_WITH_GAPS"


def test_optional_failing_case_does_not_block_readiness(tmp_path: Path) -> None:
    failing = case("optional", ["false"])
    failing["required"] = False
    report = run(write(tmp_path, [case("ok", ["true"]), failing]))
    assert report.cases[1].outcome == "FAIL"
    assert report.readiness == "READY"
    assert report.required_case_count == 1


def test_hallucinated_success_is_counted(tmp_path: Path) -> None:
    claims = case(
        "claims-success",
        ["bash", "-c", "echo wrote receipt"],
        stdout_contains=["wrote receipt"],
        artifacts=[{"path": "receipt.json", "exists": True}],
    )
    report = run(write(tmp_path, [claims]))
    assert report.metrics.hallucinated_success.count == 2
    assert report.cases[0].problems[0].code == "ARTIFACT_MISSING"


def test_blocked_marker_never_allows_ready(tmp_path: Path) -> None:
    blocked = case("needs-service", ["bash", "-c", "echo SERVICE_DOWN"])
    blocked["blocked_when_stdout_contains"] = ["SERVICE_DOWN"]
    report = run(write(tmp_path, [blocked]))
    assert report.cases[0].outcome == "BLOCKED"
    assert report.readiness != "READY"


def test_focused_run_reports_only_the_selected_case(tmp_path: Path) -> None:
    path = write(tmp_path, [case("a", ["true"]), case("b", ["true"])])
    report = run(path, focus=("b",))
    assert [c.name for c in report.cases] == ["b"]
    assert report.focused_cases == ["b"]
    with pytest.raises(UnknownCaseError):
        run(path, focus=("zzz",))


def test_case_hashes_follow_the_test_and_the_oracle_separately(tmp_path: Path) -> None:
    first = run(write(tmp_path, [case("h", ["true"])])).cases[0]
    changed_oracle = run(write(tmp_path, [case("h", ["true"], stdout_excludes=["x"])])).cases[0]
    changed_test = run(write(tmp_path, [case("h", ["bash", "-c", "true"])])).cases[0]
    assert first.test_source_sha256 == changed_oracle.test_source_sha256
    assert first.oracle_sha256 != changed_oracle.oracle_sha256
    assert first.test_source_sha256 != changed_test.test_source_sha256
    assert first.oracle_sha256 == changed_test.oracle_sha256


def test_outside_git_the_repo_is_null(tmp_path: Path) -> None:
    report = run(write(tmp_path, [case("a", ["true"])]))
    assert report.repo is None
    assert len(report.run_id) == 32
