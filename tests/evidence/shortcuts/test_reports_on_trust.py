"""Reports taken on trust: merge re-derives every shard from its trial records.

A small skill is run in two shards; each test edits one shard report as a
careless or dishonest author would and checks that ``merge`` rejects it with
exit 2, naming the shard file and the JSON pointer of what was edited.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from builders import case, fixture, make_skill
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.judge.shard import SHARD_VARIABLES

RUN_SH = (
    "#!/usr/bin/env bash\n"
    '[ "$1" = --bad ] && { echo "bad flag: $1" >&2; exit 2; }\n'
    "echo counted 3 rows\n"
)
CLAIM = {
    "id": "counts",
    "criticality": "critical",
    "claim_semantics": "protocol",
    "evidence_required": ["deterministic"],
}


def invoke(*args: str) -> Result:
    env: dict[str, str | None] = {name: None for name in SHARD_VARIABLES}
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


class Shards(NamedTuple):
    full: dict[str, Any]
    shards: list[Path]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Shards:
    root = tmp_path_factory.mktemp("trust")
    counts = case(
        "counts",
        command=["bash", "../run.sh"],
        expected={"exit_code": 0, "stdout_contains": ["counted 3 rows"]},
        real_world=True,
        evidence_class="deterministic",
        supports_claims=["counts"],
    )
    refuses = case(
        "refuses",
        "negative",
        ["bash", "../run.sh", "--bad"],
        {"exit_code": 2, "stderr_contains": ["bad flag"]},
    )
    breaks = case("breaks", command=["bash", "../run.sh", "--bad"], expected={"exit_code": 0})
    document = fixture([counts, refuses, breaks], skill="counter", capability_claims=[CLAIM])
    skill = make_skill(root / "counter", files={"run.sh": RUN_SH}, fixture=document)
    path = str(skill / "fixtures" / "agentic_eval.json")
    full = root / "full.json"
    assert invoke("run", path, "-o", str(full)).exit_code == 1  # "breaks" fails
    paths = [root / "shard-1.json", root / "shard-2.json"]
    for k, report in enumerate(paths, 1):
        invoke("run", path, "--shard", f"{k}/2", "-o", str(report))
    return Shards(json.loads(full.read_text()), paths)


def edited(shards: Shards, tmp_path: Path, k: int, edit: Callable[[Any], None]) -> list[str]:
    """The shard paths, shard ``k`` (from 1) replaced by an edited copy."""
    report = json.loads(shards.shards[k - 1].read_text())
    edit(report)
    copy = tmp_path / f"edited-{k}.json"
    copy.write_text(json.dumps(report))
    paths = [str(path) for path in shards.shards]
    paths[k - 1] = str(copy)
    return paths


def rejected(paths: list[str], tmp_path: Path) -> str:
    output = tmp_path / "merged.json"
    result = invoke("merge", *paths, "-o", str(output))
    assert result.exit_code == 2, result.output
    assert not output.exists()
    assert "Traceback" not in result.output
    return result.stderr


def test_untouched_shards_merge_into_the_full_run(shards: Shards, tmp_path: Path) -> None:
    output = tmp_path / "merged.json"
    result = invoke("merge", *map(str, shards.shards), "-o", str(output))
    assert result.exit_code == 1, result.output
    merged = json.loads(output.read_text())
    for key in ("readiness", "case_readiness", "outcome_counts", "metrics", "fixture_cases"):
        assert merged[key] == shards.full[key], key
    assert merged["readiness_limit"] is None


def test_a_case_outcome_flipped_to_pass_is_rejected(shards: Shards, tmp_path: Path) -> None:
    # Shard 1 holds "counts" and "breaks"; "breaks" failed both trials.
    def flip(report: Any) -> None:
        assert report["cases"][1]["outcome"] == "FAIL"
        report["cases"][1]["outcome"] = "PASS"

    paths = edited(shards, tmp_path, 1, flip)
    stderr = rejected(paths, tmp_path)
    assert f"{paths[0]}: /cases/1/outcome: 'PASS', but its trials give(s) 'FAIL'" in stderr


def test_trials_flipped_with_their_problems_still_show_the_exit_code(
    shards: Shards, tmp_path: Path
) -> None:
    def flip_everything(report: Any) -> None:
        broken = report["cases"][1]
        for trial in broken["trials"]:
            trial["outcome"], trial["problems"] = "PASS", []
        broken.update(outcome="PASS", problems=[], passed_trials=2, pass_rate=1.0)

    paths = edited(shards, tmp_path, 1, flip_everything)
    stderr = rejected(paths, tmp_path)
    assert f"{paths[0]}: /cases/1/trials/0/outcome: PASS, but the trial exited 2" in stderr


def test_a_trial_passed_with_its_problem_kept_is_rejected(shards: Shards, tmp_path: Path) -> None:
    def flip_trial(report: Any) -> None:
        report["cases"][1]["trials"][1]["outcome"] = "PASS"

    stderr = rejected(edited(shards, tmp_path, 1, flip_trial), tmp_path)
    assert "/cases/1/trials/1/outcome: PASS, but the trial records EXIT_CODE" in stderr


def test_an_expectation_rewritten_to_the_output_breaks_its_hash(
    shards: Shards, tmp_path: Path
) -> None:
    def rewrite(report: Any) -> None:
        broken = report["cases"][1]
        broken["expected"]["exit_code"] = 2
        for trial in broken["trials"]:
            trial["outcome"], trial["problems"] = "PASS", []
        broken.update(outcome="PASS", problems=[], passed_trials=2, pass_rate=1.0)

    stderr = rejected(edited(shards, tmp_path, 1, rewrite), tmp_path)
    assert "/cases/1/oracle_sha256: " in stderr and "its expected" in stderr


def test_a_fabricated_case_is_rejected(shards: Shards, tmp_path: Path) -> None:
    def invent(report: Any) -> None:
        made_up = json.loads(json.dumps(report["cases"][0]))
        made_up["name"], made_up["case_id"] = "invented", "counter::invented"
        for n, trial in enumerate(made_up["trials"], 1):
            trial["trial_id"] = f"counter::invented#{n}"
        report["cases"].append(made_up)

    stderr = rejected(edited(shards, tmp_path, 1, invent), tmp_path)
    assert "/cases/2/name: 'invented' is not a case of the fixture" in stderr


def test_a_case_whose_hash_is_not_the_fixtures_is_rejected(shards: Shards, tmp_path: Path) -> None:
    def rehash(report: Any) -> None:
        report["cases"][0]["test_source_sha256"] = "0" * 64

    stderr = rejected(edited(shards, tmp_path, 1, rehash), tmp_path)
    assert "/cases/0/test_source_sha256: '0000" in stderr and "fixture_cases" in stderr


def test_a_fixture_case_list_rewritten_in_one_shard_is_rejected(
    shards: Shards, tmp_path: Path
) -> None:
    def drop(report: Any) -> None:
        report["fixture_cases"] = report["fixture_cases"][1:2]  # only "refuses", its own case

    paths = edited(shards, tmp_path, 2, drop)
    stderr = rejected(paths, tmp_path)
    assert f"{paths[1]}: /cases: shard 2/2 holds ['refuses'], but the shard rule gives it" in stderr


def test_rewritten_claim_evidence_is_rejected(shards: Shards, tmp_path: Path) -> None:
    def promote(report: Any) -> None:
        entry = report["capability_readiness"]["claims"][0]["evidence"][0]
        entry["effective_evidence_class"] = "live_e2e"

    stderr = rejected(edited(shards, tmp_path, 1, promote), tmp_path)
    pointer = "/capability_readiness/claims/0/evidence/0/effective_evidence_class"
    assert f"{pointer}: 'live_e2e', but its case give(s) 'deterministic'" in stderr

    def hide(report: Any) -> None:
        report["capability_readiness"]["claims"][0]["evidence"] = []

    stderr = rejected(edited(shards, tmp_path, 1, hide), tmp_path)
    assert "/capability_readiness/claims/0/evidence: leaves out ['counts']" in stderr

    def lower(report: Any) -> None:
        report["capability_readiness"]["claims"][0]["criticality"] = "optional"

    stderr = rejected(edited(shards, tmp_path, 2, lower), tmp_path)
    assert "/capability_readiness: differs from what the report's own case records" in stderr

    def redeclare(report: Any) -> None:
        report["capability_readiness"]["claims"][0]["description"] = "another claim"

    paths = edited(shards, tmp_path, 2, redeclare)
    stderr = rejected(paths, tmp_path)
    assert f"{paths[1]}: /capability_readiness/claims: differs from {paths[0]}" in stderr


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("readiness", "READY"),
        ("case_readiness", "READY"),
        ("outcome_counts", {"PASS": 2, "FAIL": 0, "BLOCKED": 0, "NOT_TESTED": 0}),
        ("trial_count", 3),
        ("readiness_limit", None),
    ],
)
def test_a_derived_figure_edited_is_rejected(
    shards: Shards, tmp_path: Path, key: str, value: object
) -> None:
    def edit(report: Any) -> None:
        report[key] = value

    paths = edited(shards, tmp_path, 1, edit)
    stderr = rejected(paths, tmp_path)
    assert f"{paths[0]}: /{key}: differs from what the report's own case records give" in stderr


def _retitle_trial(report: Any) -> None:
    report["cases"][0]["trials"][1]["trial_id"] = "counter::counts#7"


def _recount(report: Any) -> None:
    report["cases"][1].update(passed_trials=2, pass_rate=1.0)


def _steady(report: Any) -> None:
    report["cases"][0]["flaky"] = True


def _admit_optional(report: Any) -> None:
    report["capability_readiness"]["claims"][0]["evidence"][0]["ineligible"] = ["NOT_REQUIRED_CASE"]


def _fewer_trials(report: Any) -> None:
    report["trials_per_case"] = 1


@pytest.mark.parametrize(
    ("edit", "pointer"),
    [
        (_retitle_trial, "/cases/0/trials/1/trial_id: 'counter::counts#7'"),
        (_recount, "/cases/1/passed_trials: 2, but its trials give(s) 0"),
        (_steady, "/cases/0/flaky: True, but its trials give(s) False"),
        (_admit_optional, "/capability_readiness/claims/0/evidence/0/ineligible: says"),
        (_fewer_trials, "/cases/0/outcome: 'PASS', but its trials give(s) 'NOT_TESTED'"),
    ],
)
def test_a_case_record_edited_is_rejected(
    shards: Shards, tmp_path: Path, edit: Callable[[Any], None], pointer: str
) -> None:
    paths = edited(shards, tmp_path, 1, edit)
    assert f"{paths[0]}: {pointer}" in rejected(paths, tmp_path)


def test_merge_fixture_catches_a_report_made_up_for_another_fixture(
    shards: Shards, tmp_path: Path
) -> None:
    fixture_path = Path(shards.full["source"])
    output = tmp_path / "merged.json"
    genuine = [str(path) for path in shards.shards]
    result = invoke("merge", *genuine, "--fixture", str(fixture_path), "-o", str(output))
    assert result.exit_code == 1, result.output  # the fixture's own shards: merged

    # Shards made up for a fixture without the failing case "breaks".
    forged = []
    for k, path in enumerate(shards.shards, 1):
        report = json.loads(path.read_text())
        report["fixture_cases"] = [e for e in report["fixture_cases"] if e["name"] != "breaks"]
        report["cases"] = [c for c in report["cases"] if c["name"] != "breaks"]
        forged.append(tmp_path / f"forged-{k}.json")
        forged[-1].write_text(json.dumps(report))
    names = [str(path) for path in forged]
    output.unlink()
    result = invoke("merge", *names, "--fixture", str(fixture_path), "-o", str(output))
    assert result.exit_code == 2 and not output.exists()
    assert f"{names[0]}: /fixture_cases: 2, but the fixture's cases give(s) 3" in result.stderr

    other = tmp_path / "other.json"
    other.write_text(fixture_path.read_text() + "\n")
    result = invoke("merge", *genuine, "--fixture", str(other), "-o", str(output))
    assert result.exit_code == 2
    assert f"{genuine[0]}: /fixture_sha256: " in result.stderr
    assert f"not a report of {other}" in result.stderr
