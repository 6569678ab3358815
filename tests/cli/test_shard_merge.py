"""``run --shard`` and ``merge`` through the real CLI: N shards merge into one full run."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.judge.shard import SHARD_VARIABLES

REPO = Path(__file__).resolve().parents[2]
# configuration: how each command was invoked (its flags and file), not what it found.
VOLATILE = frozenset({"run_id", "generated_at", "duration_ms", "configuration"})

CASES: list[dict[str, Any]] = [
    {
        "name": "a-passes",
        "type": "positive",
        "command": ["bash", "-c", "echo ok"],
        "expected": {"exit_code": 0, "stdout_contains": ["ok"]},
        "supports_claims": ["tallies"],
    },
    {
        "name": "b-wrong-exit-code",
        "type": "negative",
        "command": ["bash", "-c", "echo partial; exit 3"],
        "expected": {"exit_code": 0, "stdout_contains": ["partial"]},
    },
    {
        "name": "c-flaky",
        "type": "positive",
        "command": ["bash", "-c", 'test "$AGENTIC_EVALS_TRIAL" = 1'],
        "expected": {"exit_code": 0},
        "supports_claims": ["tallies"],
    },
    {
        "name": "d-optional-fails",
        "type": "adversarial",
        "required": False,
        "command": ["bash", "-c", "exit 1"],
        "expected": {"exit_code": 0},
    },
    {
        "name": "e-program-does-not-exist",
        "type": "negative",
        "command": ["agentic-evals-sample-no-such-program"],
        "expected": {"exit_code": 0},
    },
    {
        "name": "f-passes",
        "type": "positive",
        "command": ["bash", "-c", "echo fine >&2"],
        "expected": {"exit_code": 0, "stderr_contains": ["fine"]},
    },
]
NAMES = [case["name"] for case in CASES]


def fixture_document(cases: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "version": 2,
        "skill": "shard-sample",
        "eval_kind": "runner_selftest",
        "trials": 2,
        "owner": "an unknown key: a load-time warning every shard repeats",
        "capability_claims": [
            {"id": "tallies", "criticality": "optional", "evidence_required": ["live_e2e"]}
        ],
        "cases": cases,
    }


def invoke(*args: str, env: Mapping[str, str] | None = None) -> Result:
    # Start from no shard variables at all, whatever CI job the tests run in.
    clean: dict[str, str | None] = {name: None for name in SHARD_VARIABLES}
    clean.update(env or {})
    return CliRunner().invoke(cli, list(args), env=clean, catch_exceptions=False)


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def without_volatile(value: Any) -> Any:
    """The report minus what differs between any two runs: times, ids, durations."""
    if isinstance(value, dict):
        return {k: without_volatile(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [without_volatile(item) for item in value]
    return value


class ShardRun(NamedTuple):
    fixture: Path
    full: Path
    shards: list[Path]


@pytest.fixture(scope="module")
def shard_run(tmp_path_factory: pytest.TempPathFactory) -> ShardRun:
    """One full run and three shard runs of the same six-case fixture."""
    root = tmp_path_factory.mktemp("shards")
    fixture = root / "agentic_eval.json"
    fixture.write_text(json.dumps(fixture_document(CASES), indent=2))
    full = root / "full.json"
    result = invoke("run", str(fixture), "-o", str(full))
    assert result.exit_code == 1, result.output  # USABLE_WITH_GAPS
    shards = []
    for k in (1, 2, 3):
        shard = root / f"report-{k}.json"
        result = invoke("run", str(fixture), "--shard", f"{k}/3", "-o", str(shard), "--report-only")
        assert result.exit_code == 0, result.output
        shards.append(shard)
    return ShardRun(fixture, full, shards)


def case_rows(report: Any) -> list[tuple[str, str, bool, int, int]]:
    return [
        (c["name"], c["outcome"], c["flaky"], c["passed_trials"], c["total_trials"])
        for c in report["cases"]
    ]


def test_merged_shards_equal_one_full_run(
    shard_run: ShardRun, tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    merged_path = tmp_path / "report.json"
    scrambled = [shard_run.shards[2], shard_run.shards[0], shard_run.shards[1]]
    result = invoke("merge", *map(str, scrambled), "-o", str(merged_path))
    assert result.exit_code == 1, result.output
    assert "readiness: USABLE_WITH_GAPS (exit 1)" in result.stdout
    full, merged = load(shard_run.full), load(merged_path)
    shards = [load(path) for path in shard_run.shards]
    for report in (full, merged, *shards):
        assert_valid_report(report)
    assert [s["shard"] for s in shards] == [{"index": k, "total": 3} for k in (1, 2, 3)]
    assert [case_rows(s) for s in shards] == [
        case_rows(full)[0::3],
        case_rows(full)[1::3],
        case_rows(full)[2::3],
    ]
    assert full["shard"] is None and merged["shard"] is None
    for key in (
        "readiness",
        "case_readiness",
        "outcome_counts",
        "case_count",
        "trial_count",
        "required_case_count",
        "metrics",
        "claims_coverage",
        "warnings",
    ):
        assert merged[key] == full[key], key
    assert case_rows(merged) == case_rows(full)
    assert [row[0] for row in case_rows(merged)] == NAMES
    assert full["readiness"] == "USABLE_WITH_GAPS"
    assert full["metrics"]["flaky_cases"] == ["c-flaky"]
    assert len(full["warnings"]) == 1
    assert without_volatile(merged) == without_volatile(full)
    assert merged["run_id"] not in {s["run_id"] for s in shards}
    assert merged["duration_ms"] == max(s["duration_ms"] for s in shards)


def test_merge_report_only_exits_0_and_json_can_go_to_stdout(shard_run: ShardRun) -> None:
    result = invoke("merge", *map(str, shard_run.shards), "-o", "-", "--report-only")
    assert result.exit_code == 0, result.output
    merged = json.loads(result.stdout)
    assert merged["case_count"] == len(CASES)
    assert "readiness: USABLE_WITH_GAPS (exit 0)" in result.stderr


def test_merge_of_a_ready_fixture_exits_0(tmp_path: Path) -> None:
    fixture = tmp_path / "ready.json"
    document = fixture_document([{**CASES[0], "evidence_class": "deterministic"}, CASES[5]])
    document["capability_claims"][0]["evidence_required"] = ["deterministic"]
    fixture.write_text(json.dumps(document))
    reports = []
    for k in (1, 2):
        reports.append(str(tmp_path / f"r{k}.json"))
        # A shard exits by its own cases, but is never READY: shard 2 holds no case of the claim.
        assert invoke("run", str(fixture), "--shard", f"{k}/2", "-o", reports[-1]).exit_code == 0
        shard = load(Path(reports[-1]))
        assert (shard["readiness"], shard["case_readiness"]) == ("NOT_ESTABLISHED", "READY")
        assert shard["readiness_limit"].startswith("a shard run decides nothing")
    result = invoke("merge", *reports, "-o", str(tmp_path / "merged.json"))
    assert result.exit_code == 0, result.output
    merged = load(tmp_path / "merged.json")
    assert merged["readiness"] == "READY"
    assert merged["capability_readiness"]["claims"][0]["verdict"] == "PROVEN"


def test_merge_recomputes_interruption_duration_and_warnings(
    shard_run: ShardRun, tmp_path: Path
) -> None:
    edited = []
    for k, (path, duration) in enumerate(zip(shard_run.shards, (5, 500, 50), strict=True), 1):
        report = load(path)
        report["duration_ms"] = duration
        report["interrupted"] = "SIGTERM" if k == 2 else None
        edited.append(tmp_path / path.name)
        edited[-1].write_text(json.dumps(report))
    assert invoke("merge", *map(str, edited), "-o", str(tmp_path / "m.json")).exit_code == 1
    merged = load(tmp_path / "m.json")
    assert merged["interrupted"] == "SIGTERM"
    assert merged["duration_ms"] == 500
    assert merged["warnings"] == load(shard_run.shards[0])["warnings"]


def test_merge_refuses_focused_reports(shard_run: ShardRun, tmp_path: Path) -> None:
    reports = []
    for name in ("f-passes", "a-passes"):
        reports.append(str(tmp_path / f"{name}.json"))
        # Every selected case passed: a focused run exits 0, but is never READY.
        args = ("run", str(shard_run.fixture), "--case", name, "-o", reports[-1])
        assert invoke(*args).exit_code == 0
        focused = load(Path(reports[-1]))
        assert focused["readiness"] == "NOT_ESTABLISHED"
        assert focused["focused_cases"] == [name]
    stderr = refusal(*reports, output=tmp_path / "m.json")
    assert f"{reports[0]}: /focused_cases: a focused run (--case) cannot be merged" in stderr


def test_a_shard_run_keeps_the_gates(tmp_path: Path) -> None:
    shutil.copy(REPO / "fixtures" / "samples" / "slop.json", tmp_path / "slop.json")
    result = invoke("run", str(tmp_path / "slop.json"), "--shard", "1/2")
    assert result.exit_code == 2
    assert "AE-SLOP-TRIALS" in result.stderr


def test_an_empty_shard_runs_nothing_and_is_not_established(
    shard_run: ShardRun, tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    output = tmp_path / "empty.json"
    result = invoke("run", str(shard_run.fixture), "--shard", "7/7", "-o", str(output))
    assert result.exit_code == 1, result.output
    assert "readiness: NOT_ESTABLISHED (exit 1)" in result.stdout
    report = load(output)
    assert_valid_report(report)
    assert (report["case_count"], report["trial_count"], report["cases"]) == (0, 0, [])
    assert report["shard"] == {"index": 7, "total": 7}
    args = ("run", str(shard_run.fixture), "--shard", "7/7", "--report-only")
    assert invoke(*args).exit_code == 0


@pytest.mark.parametrize(
    ("args", "env", "shard"),
    [
        ((), {"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, (2, 3)),
        ((), {"JOB_COMPLETION_INDEX": "0", "AGENTIC_EVALS_SHARD_TOTAL": "3"}, (1, 3)),
        (("--shard-total", "3"), {"JOB_COMPLETION_INDEX": "2"}, (3, 3)),
        (("--shard", "1/2"), {"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, (1, 2)),
    ],
)
def test_shard_from_flag_or_ci_environment(
    shard_run: ShardRun,
    tmp_path: Path,
    args: tuple[str, ...],
    env: dict[str, str],
    shard: tuple[int, int],
) -> None:
    output = tmp_path / "r.json"
    result = invoke(
        "run", str(shard_run.fixture), *args, "-o", str(output), "--report-only", env=env
    )
    assert result.exit_code == 0, result.output
    report = load(output)
    index, total = shard
    assert report["shard"] == {"index": index, "total": total}
    assert report["focused_cases"] is None
    assert [c["name"] for c in report["cases"]] == NAMES[index - 1 :: total]


def test_a_focused_run_ignores_the_ci_shard(shard_run: ShardRun, tmp_path: Path) -> None:
    output = tmp_path / "r.json"
    env = {"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}
    args = ("run", str(shard_run.fixture), "--case", "a-passes", "-o", str(output), "--report-only")
    result = invoke(*args, env=env)
    assert result.exit_code == 0, result.output
    report = load(output)
    assert (report["shard"], report["focused_cases"]) == (None, ["a-passes"])
    assert report["cases"][0]["outcome"] == "PASS"


def test_trials_never_see_the_shard_variables(tmp_path: Path) -> None:
    probe = {
        "name": "no-shard-variables",
        "type": "positive",
        "command": [
            "bash",
            "-c",
            'echo "[${CI_NODE_INDEX-}${CI_NODE_TOTAL-}${JOB_COMPLETION_INDEX-}'
            '${AGENTIC_EVALS_SHARD_TOTAL-}]"',
        ],
        "expected": {"exit_code": 0, "stdout_contains": ["[]"]},
    }
    fixture = tmp_path / "probe.json"
    document = fixture_document([probe])
    del document["capability_claims"]  # exit 0 below means: the probe passed
    fixture.write_text(json.dumps(document))
    for env in (
        {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "1"},
        {"JOB_COMPLETION_INDEX": "0", "AGENTIC_EVALS_SHARD_TOTAL": "1"},
    ):
        result = invoke("run", str(fixture), env=env)
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (("--shard", "two/4"), {}, "expected K/N with whole numbers"),
        (("--shard", "0/4"), {}, "shards count from 1"),
        (("--shard", "5/4"), {}, "shard 5/4 does not exist"),
        (("--shard", "1/0"), {}, "the shard total must be at least 1"),
        (("--shard", "1/2", "--case", "a-passes"), {}, "--shard and --case exclude each other"),
        (("--shard", "1/2", "--shard-total", "2"), {}, "--shard K/N has its total"),
        ((), {"JOB_COMPLETION_INDEX": "0"}, "pass --shard-total N or set"),
        ((), {"CI_NODE_INDEX": "1"}, "CI_NODE_TOTAL is not"),
        (("--shard-total", "4"), {}, "JOB_COMPLETION_INDEX is not set"),
        (("--shard-total", "4"), {"JOB_COMPLETION_INDEX": "4"}, "shard 5/4 does not exist"),
        (("--shard-total", "0"), {"JOB_COMPLETION_INDEX": "0"}, "--shard-total"),
    ],
)
def test_shard_usage_errors_exit_2_and_run_nothing(
    shard_run: ShardRun,
    tmp_path: Path,
    args: tuple[str, ...],
    env: dict[str, str],
    message: str,
) -> None:
    output = tmp_path / "r.json"
    result = invoke("run", str(shard_run.fixture), *args, "-o", str(output), env=env)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not output.exists()


def write_json(path: Path, document: Any) -> str:
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return str(path)


def refusal(*reports: str, output: Path) -> str:
    result = invoke("merge", *reports, "-o", str(output))
    assert result.exit_code == 2, result.output
    assert not output.exists()
    assert "nothing was written" in result.stderr
    return result.stderr


def test_merge_refuses_shards_of_another_fixture(shard_run: ShardRun, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(shard_run.fixture.read_text() + "\n")  # same cases, other bytes
    odd = tmp_path / "odd-2.json"
    assert (
        invoke("run", str(other), "--shard", "2/3", "-o", str(odd), "--report-only").exit_code == 0
    )
    s1, _, s3 = map(str, shard_run.shards)
    stderr = refusal(s1, str(odd), s3, output=tmp_path / "m.json")
    assert f"{odd}: /fixture_sha256: " in stderr
    assert "only shards of one fixture can be merged" in stderr


def test_merge_refuses_another_skill(shard_run: ShardRun, tmp_path: Path) -> None:
    report = load(shard_run.shards[1])
    report["skill"] = "another-skill"
    odd = write_json(tmp_path / "odd.json", report)
    s1, _, s3 = map(str, shard_run.shards)
    stderr = refusal(s1, odd, s3, output=tmp_path / "m")
    assert f"{odd}: /cases/0/case_id: 'shard-sample::b-wrong-exit-code', but" in stderr
    for case in report["cases"]:
        case["case_id"] = case["case_id"].replace("shard-sample", "another-skill")
        for trial in case["trials"]:
            trial["trial_id"] = trial["trial_id"].replace("shard-sample", "another-skill")
    odd = write_json(tmp_path / "odd.json", report)
    assert f"{odd}: /skill: another-skill differs" in refusal(s1, odd, s3, output=tmp_path / "m")


def test_merge_refuses_mixed_shard_totals(shard_run: ShardRun, tmp_path: Path) -> None:
    half = tmp_path / "half.json"
    args = ("run", str(shard_run.fixture), "--shard", "1/2", "-o", str(half), "--report-only")
    assert invoke(*args).exit_code == 0
    stderr = refusal(*map(str, shard_run.shards), str(half), output=tmp_path / "m.json")
    assert f"{half}: /shard/total: 2 differs from 3" in stderr
    stderr = refusal(str(shard_run.full), str(shard_run.shards[0]), output=tmp_path / "m.json")
    assert "/shard/total: 3 differs from none (not a shard report)" in stderr


def test_merge_refuses_a_duplicate_shard(shard_run: ShardRun, tmp_path: Path) -> None:
    copy = tmp_path / "copy-of-1.json"
    shutil.copy(shard_run.shards[0], copy)
    stderr = refusal(*map(str, shard_run.shards), str(copy), output=tmp_path / "m.json")
    assert "shard 1/3 was already given in" in stderr
    assert str(copy) in stderr


def test_merge_refuses_missing_shards(shard_run: ShardRun, tmp_path: Path) -> None:
    s1, _, s3 = map(str, shard_run.shards)
    stderr = refusal(s1, s3, output=tmp_path / "m.json")
    assert "shard(s) 2/3 missing" in stderr


def test_merge_refuses_a_case_given_twice(shard_run: ShardRun, tmp_path: Path) -> None:
    stderr = refusal(str(shard_run.full), str(shard_run.full), output=tmp_path / "m.json")
    assert "case 'shard-sample::a-passes' already appears in" in stderr


def test_merge_refuses_a_shard_holding_other_cases(shard_run: ShardRun, tmp_path: Path) -> None:
    report = load(shard_run.shards[1])
    report["cases"] = report["cases"][:1]
    odd = write_json(tmp_path / "odd.json", report)
    s1, _, s3 = map(str, shard_run.shards)
    stderr = refusal(s1, odd, s3, output=tmp_path / "m.json")
    assert f"{odd}: /cases: shard 2/3 holds ['b-wrong-exit-code'], but the shard rule" in stderr


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"hello": "world"}, "not an agentic_evals.report.v2 report (schema: None)"),
        (
            {"schema": "agentic_evals.report.v1"},
            "not an agentic_evals.report.v2 report (schema: 'agentic_evals.report.v1')",
        ),
        ([1, 2], "not an agentic_evals.report.v2 report"),
        ("{not json", "not JSON"),
        ({"schema": "agentic_evals.report.v2"}, "not a valid agentic_evals.report.v2 report"),
    ],
)
def test_merge_refuses_what_is_not_a_report(
    shard_run: ShardRun, tmp_path: Path, document: Any, message: str
) -> None:
    bad = write_json(tmp_path / "bad.json", document)
    stderr = refusal(str(shard_run.shards[0]), bad, output=tmp_path / "m.json")
    assert f"{bad}: {message}" in stderr


def test_merge_refuses_an_unreadable_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    assert f"{missing}: cannot read" in refusal(missing, output=tmp_path / "m.json")


def test_merge_needs_reports_and_an_output(shard_run: ShardRun) -> None:
    assert invoke("merge", "-o", "x.json").exit_code == 2
    assert invoke("merge", str(shard_run.shards[0])).exit_code == 2
