"""``export eee``: envelopes that validate against the Every Eval Ever 0.2.2 reference
schemas (aggregate and instance), carry the report's measurements and hashes, are named
by skill, time and run, and are byte-identical when a run is exported again."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from eee_helpers import AGGREGATE_SCHEMA, INSTANCE_SCHEMA, assert_valid, exported, invoke
from history_helpers import HISTORY_FIXTURE, variant, write_reports

from agentic_evals.cli import cli

# A case whose exit code and output pass while its artifact is missing: hallucinated success.
HALLUCINATING = {
    **HISTORY_FIXTURE,
    "cases": [
        *HISTORY_FIXTURE["cases"],
        {
            "name": "claims-a-receipt",
            "type": "positive",
            "command": ["bash", "-c", "echo receipt written"],
            "expected": {
                "exit_code": 0,
                "stdout_contains": ["receipt written"],
                "artifacts": [{"path": "out/receipt.json", "json_pointer": "/ok", "equals": True}],
            },
        },
    ],
}


@pytest.fixture(scope="module")
def hallucinating_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("hallucinating")
    (folder / "agentic_eval.json").write_text(json.dumps(HALLUCINATING))
    result = CliRunner().invoke(
        cli,
        ["run", str(folder / "agentic_eval.json"), "-o", str(folder / "r.json"), "--no-history"],
        catch_exceptions=False,
    )
    assert result.exit_code == 1, result.output
    document: dict[str, Any] = json.loads((folder / "r.json").read_text())
    assert document["metrics"]["hallucinated_success"]["count"] == 2
    return document


def export_one(report: dict[str, Any], folder: Path, *extra: str) -> tuple[dict[str, Any], Path]:
    (path,) = write_reports(folder / "in", report)
    out = folder / "out"
    result = invoke("export", "eee", str(path), "--org", "Example Org", "-o", str(out), *extra)
    assert result.exit_code == 0, result.output
    (envelope,), (instances,) = exported(out)
    return json.loads(envelope.read_text()), instances


def results_by_metric(envelope: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["evaluation_result_id"].split("/")[-1]: r for r in envelope["evaluation_results"]}


@pytest.mark.parametrize("which", ["ready", "hallucinating"])
def test_exports_validate_against_both_reference_schemas(
    which: str,
    base_report: dict[str, Any],
    hallucinating_report: dict[str, Any],
    tmp_path: Path,
) -> None:
    report = base_report if which == "ready" else hallucinating_report
    envelope, instances = export_one(report, tmp_path)
    assert_valid(AGGREGATE_SCHEMA, envelope)
    lines = instances.read_text().splitlines()
    assert len(lines) == report["metrics"]["trial_pass_rate"]["total"]
    for line in lines:
        assert_valid(INSTANCE_SCHEMA, json.loads(line))
    detail = envelope["detailed_evaluation_results"]
    assert detail["file_path"] == instances.name
    assert detail["checksum"] == hashlib.sha256(instances.read_bytes()).hexdigest()
    assert detail["total_rows"] == len(lines)


def test_the_envelope_carries_the_reports_measurements_and_hashes(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    envelope, instances = export_one(base_report, tmp_path)
    run_id = base_report["run_id"]
    assert envelope["schema_version"] == "0.2.2"
    assert envelope["evaluation_id"] == f"hist.runner_selftest/agent-skill/hist/{run_id}"
    assert envelope["source_metadata"]["source_organization_name"] == "Example Org"
    assert envelope["source_metadata"]["evaluator_relationship"] == "first_party"
    assert envelope["source_metadata"]["additional_details"]["run_id"] == run_id
    assert envelope["model_info"] == {
        "name": "hist",
        "id": "agent-skill/hist",
        "additional_details": {"subject_kind": "agent_skill", "eval_kind": "runner_selftest"},
    }
    library = envelope["eval_library"]
    assert (library["name"], library["version"]) == (
        "agentic-evals",
        base_report["runner"]["version"],
    )
    assert library["additional_details"]["fixture_sha256"] == base_report["fixture_sha256"]
    hashes = json.loads(library["additional_details"]["case_hashes"])
    for case in base_report["cases"]:
        assert hashes[case["case_id"]] == {
            "test_source_sha256": case["test_source_sha256"],
            "oracle_sha256": case["oracle_sha256"],
        }
    results = results_by_metric(envelope)
    assert list(results) == [
        "readiness",
        "trial_pass_rate",
        "critical_claims_proven",
        "hallucinated_success_rate",
    ]
    readiness = results["readiness"]
    assert readiness["metric_config"]["level_names"][int(readiness["score_details"]["score"])] == (
        "READY"
    )
    rate, metrics = results["trial_pass_rate"]["score_details"], base_report["metrics"]
    assert rate["score"] == metrics["trial_pass_rate"]["rate"] == 1.0
    assert rate["uncertainty"]["confidence_interval"] == {
        "lower": metrics["trial_pass_rate"]["wilson_low"],
        "upper": metrics["trial_pass_rate"]["wilson_high"],
        "confidence_level": 0.95,
        "method": "wilson",
    }
    assert rate["uncertainty"]["num_samples"] == 4
    assert results["critical_claims_proven"]["score_details"]["score"] == 1.0
    assert results["hallucinated_success_rate"]["score_details"]["score"] == 0.0
    assert results["hallucinated_success_rate"]["metric_config"]["lower_is_better"] is True
    first = json.loads(instances.read_text().splitlines()[0])
    assert first["sample_id"] == f"{base_report['cases'][0]['case_id']}#1"
    assert first["evaluation"] == {"score": 1.0, "is_correct": True, "num_turns": 1}
    assert first["evaluation_result_id"] == "hist.runner_selftest/trial_pass_rate"


def test_a_failing_run_exports_its_failures(
    hallucinating_report: dict[str, Any], tmp_path: Path
) -> None:
    envelope, instances = export_one(hallucinating_report, tmp_path)
    results = results_by_metric(envelope)
    levels = results["readiness"]["metric_config"]["level_names"]
    assert (
        levels[int(results["readiness"]["score_details"]["score"])]
        == (hallucinating_report["readiness"])
    )
    assert results["hallucinated_success_rate"]["score_details"]["score"] == pytest.approx(2 / 6)
    assert results["trial_pass_rate"]["score_details"]["score"] == pytest.approx(4 / 6)
    failed = [json.loads(line) for line in instances.read_text().splitlines()][-1]
    assert failed["evaluation"]["is_correct"] is False and failed["evaluation"]["score"] == 0.0
    assert "ARTIFACT" in failed["error"]
    assert failed["metadata"]["trial_outcome"] == "FAIL"


def test_file_names_and_a_second_export_are_identical_from_a_report_or_the_history(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    (path,) = write_reports(tmp_path / "in", base_report)
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    assert invoke("history", "import", str(path), "--history", url).exit_code == 0
    outputs = []
    for name, argv in (
        ("a", [str(path)]),
        ("b", [str(path)]),
        ("c", ["last", "--history", url]),
        ("d", [base_report["run_id"][:10], "--history", url]),
    ):
        result = invoke("export", "eee", *argv, "--org", "Example Org", "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        outputs.append(exported(tmp_path / name))
    names = {tuple(p.name for p in envelopes + files) for envelopes, files in outputs}
    assert len(names) == 1
    envelope_name, instances_name = names.pop()
    stem = re.fullmatch(r"hist-(\d{8}T\d{6}Z)-([0-9a-f]{32})\.eee\.json", envelope_name)
    assert stem is not None and stem.group(2) == base_report["run_id"]
    assert instances_name == envelope_name.replace(".eee.json", ".instances.jsonl")
    contents = {tuple(p.read_bytes() for p in envelopes + files) for envelopes, files in outputs}
    assert len(contents) == 1


def test_another_run_gets_another_evaluation_id(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    first, _ = export_one(base_report, tmp_path / "1")
    second, _ = export_one(variant(base_report, "another-run", 5), tmp_path / "2")
    assert first["evaluation_id"] != second["evaluation_id"]
    assert second["evaluation_id"].endswith("/another-run")


def test_a_run_without_executed_trials_exports_its_readiness_only(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    report = variant(
        base_report,
        "interrupted",
        3,
        outcomes={c["case_id"]: "NOT_TESTED" for c in base_report["cases"]},
    )
    report["readiness"] = report["case_readiness"] = "NOT_ESTABLISHED"
    report["interrupted"] = "SIGTERM"
    report["metrics"]["trial_pass_rate"] = {
        "passed": 0, "total": 0, "rate": None, "wilson_low": None, "wilson_high": None,
    }  # fmt: skip
    report["capability_readiness"]["critical_claims_proven"] = 0
    envelope, instances = export_one(report, tmp_path)
    assert_valid(AGGREGATE_SCHEMA, envelope)
    assert list(results_by_metric(envelope)) == ["readiness", "critical_claims_proven"]
    assert envelope["source_metadata"]["additional_details"]["interrupted"] == "SIGTERM"
    assert instances.read_text() == ""


def test_bad_input_exits_2_and_writes_nothing(base_report: dict[str, Any], tmp_path: Path) -> None:
    (good,) = write_reports(tmp_path / "in", base_report)
    broken = tmp_path / "in" / "broken.json"
    broken.write_text(json.dumps({**base_report, "readiness": "SORT_OF"}))
    out = tmp_path / "out"
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    for argv, message in (
        ([str(good), str(broken)], f"{broken}: /readiness: Input should be"),
        ([str(good), "no-such-run", "--history", url], "no-such-run: no run 'no-such-run'"),
        ([str(tmp_path / "missing.json")], "missing.json: cannot read"),
    ):
        result = invoke("export", "eee", *argv, "--org", "O", "-o", str(out))
        assert result.exit_code == 2, result.output
        assert message in result.stderr and "nothing was written" in result.stderr
        assert not out.exists()
    for argv in ([], [str(good), "--org", " "], [str(good), "--skill", "hist"]):
        result = invoke("export", "eee", *argv, *([] if "--org" in argv else ["--org", "O"]))
        assert result.exit_code == 2, result.output
    assert invoke("export", "eee", str(good)).exit_code == 2  # --org is required
    assert invoke("export", "eee", str(good), "--org", "O", "-o", str(good)).exit_code == 2


def test_the_envelope_names_the_skill_files_each_case_ran(
    base_report: dict[str, Any], tmp_path: Path
) -> None:
    run_sh = "sha256:" + "a" * 64
    report = variant(base_report, "run-files", 1, skill_files={"hist::alpha": {"run.sh": run_sh}})
    envelope, _ = export_one(report, tmp_path / "with")
    assert_valid(AGGREGATE_SCHEMA, envelope)
    files = json.loads(envelope["eval_library"]["additional_details"]["skill_files"])
    assert files == {"hist::alpha": {"run.sh": run_sh}, "hist::beta": {}}
    # A report from before skill_files says nothing about them, rather than "none ran".
    older = variant(base_report, "run-older", 2)
    for case in older["cases"]:
        del case["skill_files"]
    envelope, _ = export_one(older, tmp_path / "without")
    assert_valid(AGGREGATE_SCHEMA, envelope)
    assert "skill_files" not in envelope["eval_library"]["additional_details"]
