"""Compliance tier by mention: sampling is judged by what the trials did.

A case that claims fresh inputs per run (``--samples``/``--seed``/``$RANDOM``
in a compliance-tier fixture, or ``property_or_fuzz``) fails with
``SAMPLING_NOT_OBSERVED`` when every trial wrote the same bytes; the hostile
majority counts required cases with distinct commands only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builders import case, fixture, make_skill
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.judge.shard import SHARD_VARIABLES

IGNORES = (
    "#!/usr/bin/env bash\n"
    'case "$1" in --bad|--evil) echo "bad flag: $1" >&2; exit 2;; esac\n'
    'echo "sampled rows"\n'
)
HONEST = IGNORES.replace('echo "sampled rows"', 'echo "sampled rows for seed ${4:-none}"')
SAMPLES = case(
    "samples",
    command=["bash", "-c", "bash ../run.sh --samples 50 --seed $RANDOM"],
    expected={"exit_code": 0, "stdout_contains": ["sampled rows"]},
    real_world=True,
    evidence_class="deterministic",
)
BAD = case("refuses", "negative", ["bash", "../run.sh", "--bad"], {"exit_code": 2})
EVIL = case("resists", "adversarial", ["bash", "../run.sh", "--evil"], {"exit_code": 2})
for hostile in (BAD, EVIL):
    hostile["expected"]["stderr_contains"] = ["bad flag"]


def invoke(*args: str) -> Result:
    env: dict[str, str | None] = {name: None for name in SHARD_VARIABLES}
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def write(tmp_path: Path, script: str, cases: list[dict[str, Any]], **top: Any) -> str:
    top = {"eval_tier": "compliance", **top}
    top = {key: value for key, value in top.items() if value is not None}
    document = fixture(cases, skill="sampler", trials=3, **top)
    skill = tmp_path / "sampler"
    make_skill(skill, files={"run.sh": script}, fixture=document)
    return str(skill / "fixtures" / "agentic_eval.json")


def run(path: str, tmp_path: Path, *args: str) -> tuple[Result, Any]:
    output = tmp_path / "report.json"
    result = invoke("run", path, "-o", str(output), *args)
    return result, json.loads(output.read_text())


def codes_of(report: Any, name: str) -> list[str]:
    found = next(c for c in report["cases"] if c["name"] == name)
    return [p["code"] for p in found["problems"]]


def test_a_program_that_uses_its_seed_is_ready(tmp_path: Path) -> None:
    result, report = run(write(tmp_path, HONEST, [SAMPLES, BAD, EVIL]), tmp_path)
    assert result.exit_code == 0, result.output
    assert report["cases"][0]["claims_sampling"] is True
    assert "SAMPLING_NOT_OBSERVED" not in codes_of(report, "samples")


def test_samples_and_seed_passed_to_a_program_that_ignores_them_fail(tmp_path: Path) -> None:
    path = write(tmp_path, IGNORES, [SAMPLES, BAD, EVIL])
    result, report = run(path, tmp_path)
    sampled = report["cases"][0]
    assert [t["outcome"] for t in sampled["trials"]] == ["PASS"] * 3  # every check passed...
    assert sampled["outcome"] == "FAIL"  # ...but the claim of sampling did not
    assert codes_of(report, "samples") == ["SAMPLING_NOT_OBSERVED"]
    assert result.exit_code == 1 and report["readiness"] != "READY"


def test_property_or_fuzz_merely_declared_fails(tmp_path: Path) -> None:
    constant = case(
        "fuzzes",
        command=["bash", "../run.sh"],
        expected={"exit_code": 0, "stdout_contains": ["sampled rows"]},
        evidence_class="property_or_fuzz",
    )
    real = {**SAMPLES, "command": ["bash", "../run.sh"]}
    path = write(tmp_path, HONEST, [real, constant, BAD], eval_tier=None)
    result, report = run(path, tmp_path)
    assert codes_of(report, "fuzzes") == ["SAMPLING_NOT_OBSERVED"]
    assert "SAMPLING_NOT_OBSERVED" not in codes_of(report, "samples")  # claims no sampling


def test_merge_re_derives_the_sampling_verdict(tmp_path: Path) -> None:
    path = write(tmp_path, IGNORES, [SAMPLES, BAD, EVIL])
    shard = tmp_path / "shard.json"
    invoke("run", path, "--shard", "1/1", "-o", str(shard))
    report = json.loads(shard.read_text())
    report["cases"][0].update(outcome="PASS", problems=[])
    shard.write_text(json.dumps(report))
    result = invoke("merge", str(shard), "-o", str(tmp_path / "merged.json"))
    assert result.exit_code == 2
    assert "/cases/0/outcome: 'PASS', but its trials give(s) 'FAIL'" in result.stderr


def test_a_hostile_majority_of_copies_or_optional_cases_is_no_majority(tmp_path: Path) -> None:
    positive = {**SAMPLES, "name": "samples-again"}
    copy = {**BAD, "name": "refuses-again"}
    path = write(
        tmp_path, HONEST, [SAMPLES, positive, BAD, copy, {**EVIL, "command": BAD["command"]}]
    )
    result = invoke("validate", path)
    assert result.exit_code == 2
    assert "1 of 5 cases are required negative or adversarial cases with distinct commands" in (
        result.output
    )
    optional = {**EVIL, "required": False}
    other = {**BAD, "name": "refuses-other", "command": ["bash", "../run.sh", "--bad", "x"]}
    path = write(tmp_path / "b", HONEST, [SAMPLES, positive, BAD, other, optional])
    assert "AE-COMP-MAJORITY" in invoke("validate", path).output
    distinct = {**EVIL, "name": "resists-more", "command": ["bash", "../run.sh", "--evil", "y"]}
    path = write(tmp_path / "c", HONEST, [SAMPLES, positive, BAD, EVIL, distinct])
    assert "AE-COMP-MAJORITY" not in invoke("validate", path).output
