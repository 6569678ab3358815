"""What each case report declares for later comparison: its oracles, markers and skill files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from outputs_helpers import run_fixture

from agentic_evals.provenance import canonical_json
from agentic_evals.reports.model import Report


def test_every_case_carries_its_declared_oracles_and_markers(
    mixed_report: Report, mixed_dir: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    assert_valid_report(json.loads(mixed_report.model_dump_json(by_alias=True)))
    fixture = json.loads((mixed_dir / "agentic_eval.json").read_text())
    for case, raw in zip(mixed_report.cases, fixture["cases"], strict=True):
        assert case.expected == raw["expected"]
        # The declared oracles are exactly what oracle_sha256 hashes.
        assert hashlib.sha256(canonical_json(case.expected)).hexdigest() == case.oracle_sha256
        assert case.infra_blocked_when == raw.get("infra_blocked_when", [])
        assert case.blocked_when_stdout_contains == raw.get("blocked_when_stdout_contains", [])
        assert case.must_exercise == []


def test_skill_files_name_the_entrypoints_the_command_runs(
    mixed_report: Report, mixed_dir: Path
) -> None:
    digest = "sha256:" + hashlib.sha256((mixed_dir / "tool.sh").read_bytes()).hexdigest()
    assert {case.name: case.skill_files for case in mixed_report.cases} == {
        case.name: {"tool.sh": digest} for case in mixed_report.cases
    }


def test_skill_files_follow_shell_scripts_and_skip_what_is_not_a_skill_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "step.py").write_text("print('step')\n")
    (tmp_path / "run.sh").write_text("echo run\n")
    document = {
        "version": 2,
        "skill": "s",
        "eval_kind": "runner_selftest",
        "trials": 1,
        "cases": [
            {
                "name": "script-and-module",
                "type": "positive",
                "command": ["bash", "-c", "bash run.sh && python3 lib/step.py"],
                "expected": {"exit_code": 0},
            },
            {
                "name": "system-programs-only",
                "type": "positive",
                "command": ["bash", "-c", "echo hi | tr a-z A-Z"],
                "expected": {"exit_code": 0},
            },
        ],
    }
    path = tmp_path / "agentic_eval.json"
    path.write_text(json.dumps(document))
    report = run_fixture(path)
    files = report.cases[0].skill_files
    assert files is not None and sorted(files) == ["lib/step.py", "run.sh"]
    run_sh = hashlib.sha256(b"echo run\n").hexdigest()
    assert files["run.sh"] == f"sha256:{run_sh}"
    assert report.cases[1].skill_files == {}


def test_a_broken_reference_of_the_author_is_no_hallucinated_success(tmp_path: Path) -> None:
    document = {
        "version": 2,
        "skill": "s",
        "eval_kind": "runner_selftest",
        "trials": 1,
        "cases": [
            {
                "name": "compares-with-a-missing-reference",
                "type": "positive",
                "command": ["bash", "-c", "echo '{\"n\": 1}' > out.json; echo wrote"],
                "expected": {
                    "exit_code": 0,
                    "stdout_contains": ["wrote"],
                    "artifacts": [
                        {
                            "path": "out.json",
                            "json_pointer": "/n",
                            "equals_artifact": {"path": "gone.json"},
                        }
                    ],
                },
            },
            {
                "name": "claims-what-it-did-not-write",
                "type": "positive",
                "command": ["bash", "-c", "echo wrote"],
                "expected": {
                    "exit_code": 0,
                    "stdout_contains": ["wrote"],
                    "artifacts": [{"path": "missing.json"}],
                },
            },
        ],
    }
    path = tmp_path / "agentic_eval.json"
    path.write_text(json.dumps(document))
    report = run_fixture(path)
    assert [c.outcome for c in report.cases] == ["FAIL", "FAIL"]
    assert report.cases[0].problems[0].oracle == "/expected/artifacts/0/equals_artifact"
    assert report.metrics.hallucinated_success.trial_ids == ["s::claims-what-it-did-not-write#1"]
