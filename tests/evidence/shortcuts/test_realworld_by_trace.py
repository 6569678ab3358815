"""The anti-slop gate's real-world rule, judged again on what the trials did.

The fake skills here claim only ``deterministic`` evidence, so live
qualification asks nothing of them: what stops a hollow real-world case is
the real-world rule read back from the case records after the run
(``live_path_problem``, ``AE-SLOP-NO-REAL-WORLD``), in ``run`` and ``merge``
alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import case, fixture, make_skill
from click.testing import CliRunner, Result

from agentic_evals import codes
from agentic_evals.cli import cli
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.judge.shard import SHARD_VARIABLES
from agentic_evals.reports.model import Report
from agentic_evals.runner.trace_files import TRACER_VAR

HONEST_SH = (
    "#!/usr/bin/env bash\n"
    'if [ "$1" = --bad ]; then echo "bad flag: $1" >&2; exit 2; fi\n'
    "rows=$(printf 'a\\nb\\nc\\n' | wc -l)\n"
    'echo "counted $rows rows"\n'
)
ECHO_SH = "#!/bin/sh\n# the real work is elsewhere\necho 'counted 3 rows'\n"
CLAIM = {
    "id": "counts",
    "criticality": "critical",
    "claim_semantics": "protocol",
    "evidence_required": ["deterministic"],
}
REFUSES = case(
    "refuses",
    "negative",
    ["bash", "../honest.sh", "--bad"],
    {"exit_code": 2, "stderr_contains": ["bad flag: --bad"]},
    supports_claims=["counts"],
)
HOLLOW = {
    "echo-only": (
        {"run.sh": ECHO_SH},
        ["bash", "../run.sh"],
        {"exit_code": 0, "stdout_contains": ["counted 3 rows"]},
    ),
    "exit-0-and-own-wrapper": (
        {"run.sh": "exit 0\n"},
        ["bash", "-c", "bash ../run.sh; echo done"],
        {"exit_code": 0, "stdout_contains": ["done"]},
    ),
    "true-shebang": (
        {"run.sh": "#!/bin/true\npython3 count.py\n"},
        ["bash", "-c", "../run.sh && echo counted 3 rows"],
        {"exit_code": 0, "stdout_contains": ["counted 3 rows"]},
    ),
}


def document(command: list[str], expected: dict[str, Any]) -> dict[str, Any]:
    counts = case(
        "counts",
        command=command,
        expected=expected,
        real_world=True,
        evidence_class="deterministic",
        supports_claims=["counts"],
    )
    return fixture([counts, REFUSES], skill="counter", capability_claims=[CLAIM])


def write(root: Path, files: dict[str, str], command: list[str], expected: dict[str, Any]) -> Path:
    everything = {"honest.sh": HONEST_SH, **files}
    skill = make_skill(root / "counter", files=everything, fixture=document(command, expected))
    return skill / "fixtures" / "agentic_eval.json"


def run(path: Path) -> Report:
    loaded = load_fixture(path)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions()).report


def invoke(*args: str) -> Result:
    env: dict[str, str | None] = {name: None for name in SHARD_VARIABLES}
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def real_world_findings(report: Report | dict[str, Any]) -> list[str]:
    found = report.evidence_findings if isinstance(report, Report) else None
    if found is not None:
        return [f.message for f in found if f.code == codes.SLOP_NO_REAL_WORLD]
    assert isinstance(report, dict)
    found_json = report["evidence_findings"]
    return [f["message"] for f in found_json if f["code"] == codes.SLOP_NO_REAL_WORLD]


@pytest.mark.parametrize("shape", list(HOLLOW))
def test_a_hollow_real_world_case_is_not_ready(tmp_path: Path, shape: str) -> None:
    files, command, expected = HOLLOW[shape]
    report = run(write(tmp_path, files, command, expected))
    counts = report.cases[0]
    # It passes, and its claim needs only deterministic evidence: the load-time
    # gate let it through, and only the trace shows that it ran nothing.
    assert counts.outcome == "PASS" and counts.effective_evidence_class == "deterministic"
    assert counts.live_path_problem is not None
    assert "ran no substantive skill-tree file" in counts.live_path_problem
    assert report.readiness == "NOT_READY"
    assert report.case_readiness == "READY"
    [message] = real_world_findings(report)
    assert "'counts' ran no substantive skill-tree file, as its trace shows" in message


def test_the_honest_skill_stays_ready(tmp_path: Path) -> None:
    path = write(
        tmp_path, {}, ["bash", "../honest.sh"], {"exit_code": 0, "stdout_contains": ["counted"]}
    )
    report = run(path)
    assert report.cases[0].live_path_problem is None
    assert report.cases[1].live_path_problem is None  # not a real-world case
    assert real_world_findings(report) == []
    assert report.readiness == "READY"


def test_the_summary_says_why_and_what_ready_needs(tmp_path: Path) -> None:
    files, command, expected = HOLLOW["echo-only"]
    path = write(tmp_path, files, command, expected)
    result = invoke("run", str(path), "-o", str(tmp_path / "r.json"))
    assert result.exit_code == 1, result.output
    assert "evidence: counts: no live path: ran no substantive skill-tree file" in result.output
    assert "to be READY: make a required real_world case run a substantive skill-tree file" in (
        result.output
    )


def test_an_optional_honest_case_does_not_rescue_a_hollow_required_one(tmp_path: Path) -> None:
    files, command, expected = HOLLOW["echo-only"]
    doc = document(command, expected)
    spare = case(
        "spare",
        command=["bash", "../honest.sh"],
        expected={"exit_code": 0, "stdout_contains": ["counted"]},
        real_world=True,
        evidence_class="deterministic",
        required=False,
    )
    doc["cases"].append(spare)
    skill = make_skill(tmp_path / "c", files={"honest.sh": HONEST_SH, **files}, fixture=doc)
    report = run(skill / "fixtures" / "agentic_eval.json")
    assert report.cases[2].live_path_problem is None
    assert report.readiness == "NOT_READY"


def shards_of(tmp_path: Path, path: Path) -> tuple[dict[str, Any], list[Path]]:
    full = tmp_path / "full.json"
    invoke("run", str(path), "-o", str(full))
    shards = [tmp_path / "shard-1.json", tmp_path / "shard-2.json"]
    for k, report in enumerate(shards, 1):
        result = invoke("run", str(path), "--shard", f"{k}/2", "-o", str(report))
        assert result.exit_code == 0, result.output
        # A shard holds a slice of the cases: the rule waits for merge.
        assert real_world_findings(json.loads(report.read_text())) == []
    return json.loads(full.read_text()), shards


def test_merge_of_the_honest_shards_stays_ready(tmp_path: Path) -> None:
    path = write(
        tmp_path, {}, ["bash", "../honest.sh"], {"exit_code": 0, "stdout_contains": ["counted"]}
    )
    full, shards = shards_of(tmp_path, path)
    merged = tmp_path / "merged.json"
    result = invoke("merge", *map(str, shards), "-o", str(merged))
    assert result.exit_code == 0, result.output
    assert json.loads(merged.read_text())["readiness"] == full["readiness"] == "READY"


def test_merge_of_the_hollow_shards_is_not_ready(tmp_path: Path) -> None:
    files, command, expected = HOLLOW["echo-only"]
    full, shards = shards_of(tmp_path, write(tmp_path, files, command, expected))
    merged = tmp_path / "merged.json"
    result = invoke("merge", *map(str, shards), "-o", str(merged))
    assert result.exit_code == 1, result.output
    report = json.loads(merged.read_text())
    assert report["readiness"] == full["readiness"] == "NOT_READY"
    assert real_world_findings(report) == real_world_findings(full) != []


def test_merge_rejects_a_live_path_problem_erased_from_a_shard(tmp_path: Path) -> None:
    files, command, expected = HOLLOW["echo-only"]
    _, shards = shards_of(tmp_path, write(tmp_path, files, command, expected))
    edited = json.loads(shards[0].read_text())
    assert edited["cases"][0]["name"] == "counts"
    edited["cases"][0]["live_path_problem"] = None
    shards[0].write_text(json.dumps(edited))
    result = invoke("merge", *map(str, shards), "-o", str(tmp_path / "merged.json"))
    assert result.exit_code == 2, result.output
    assert "/cases/0/live_path_problem: null, but its trials give" in result.stderr
    assert "Traceback" not in result.output


def test_without_a_tracer_the_honest_skill_does_not_satisfy_the_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRACER_VAR, "none")
    path = write(
        tmp_path, {}, ["bash", "../honest.sh"], {"exit_code": 0, "stdout_contains": ["counted"]}
    )
    report = run(path)
    counts = report.cases[0]
    assert counts.outcome == "BLOCKED"
    assert counts.live_path_problem is not None
    assert counts.live_path_problem.startswith("was not traced (")
    assert report.readiness == "NOT_READY"
    [message] = real_world_findings(report)
    assert "'counts' was not traced (" in message and "what it ran is unknown" in message
