"""What each case report declares for later comparison: its oracles, markers and skill files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from builders import case, fixture, write_fixture
from outputs_helpers import run_fixture

from agentic_evals.judge.provenance import canonical_json
from agentic_evals.reports.model import Report

SELFTEST: dict[str, Any] = {"skill": "s", "eval_kind": "runner_selftest", "trials": 1}
"""A one-trial fixture of the runner's own kind, which the anti-slop gates let through."""


def test_every_case_carries_its_declared_oracles_and_markers(
    mixed_report: Report, mixed_dir: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    assert_valid_report(json.loads(mixed_report.model_dump_json(by_alias=True)))
    document = json.loads((mixed_dir / "agentic_eval.json").read_text())
    for record, raw in zip(mixed_report.cases, document["cases"], strict=True):
        assert record.expected == raw["expected"]
        # The declared oracles are exactly what oracle_sha256 hashes.
        assert hashlib.sha256(canonical_json(record.expected)).hexdigest() == record.oracle_sha256
        assert record.infra_blocked_when == raw.get("infra_blocked_when", [])
        assert record.blocked_when_stdout_contains == raw.get("blocked_when_stdout_contains", [])
        assert record.must_exercise == []


def test_skill_files_name_the_entrypoints_the_command_runs(
    mixed_report: Report, mixed_dir: Path
) -> None:
    digest = "sha256:" + hashlib.sha256((mixed_dir / "tool.sh").read_bytes()).hexdigest()
    assert {record.name: record.skill_files for record in mixed_report.cases} == {
        record.name: {"tool.sh": digest} for record in mixed_report.cases
    }


def test_skill_files_follow_shell_scripts_and_skip_what_is_not_a_skill_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "step.py").write_text("print('step')\n")
    (tmp_path / "run.sh").write_text("echo run\n")
    document = fixture(
        [
            case("script-and-module", command=["bash", "-c", "bash run.sh && python3 lib/step.py"]),
            case("system-programs-only", command=["bash", "-c", "echo hi | tr a-z A-Z"]),
        ],
        **SELFTEST,
    )
    report = run_fixture(write_fixture(tmp_path, document))
    files = report.cases[0].skill_files
    assert files is not None and sorted(files) == ["lib/step.py", "run.sh"]
    run_sh = hashlib.sha256(b"echo run\n").hexdigest()
    assert files["run.sh"] == f"sha256:{run_sh}"
    assert report.cases[1].skill_files == {}


def test_a_broken_reference_of_the_author_is_no_hallucinated_success(tmp_path: Path) -> None:
    reference = {"path": "out.json", "json_pointer": "/n", "equals_artifact": {"path": "gone.json"}}
    document = fixture(
        [
            case(
                "compares-with-a-missing-reference",
                command=["bash", "-c", "echo '{\"n\": 1}' > out.json; echo wrote"],
                expected={"exit_code": 0, "stdout_contains": ["wrote"], "artifacts": [reference]},
            ),
            case(
                "claims-what-it-did-not-write",
                command=["bash", "-c", "echo wrote"],
                expected={
                    "exit_code": 0,
                    "stdout_contains": ["wrote"],
                    "artifacts": [{"path": "missing.json"}],
                },
            ),
        ],
        **SELFTEST,
    )
    report = run_fixture(write_fixture(tmp_path, document))
    assert [c.outcome for c in report.cases] == ["FAIL", "FAIL"]
    assert report.cases[0].problems[0].oracle == "/expected/artifacts/0/equals_artifact"
    assert report.metrics.hallucinated_success.trial_ids == ["s::claims-what-it-did-not-write#1"]
