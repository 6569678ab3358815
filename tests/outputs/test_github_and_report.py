"""GitHub annotations and step summary, and ``report --format`` over a written report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from outputs_helpers import copy_sample

from agentic_evals.cli import cli
from agentic_evals.reports.github import (
    STEP_SUMMARY_LIMIT,
    append_step_summary,
    render_github,
)
from agentic_evals.reports.model import Report


def test_annotations_are_ranked_located_and_escaped(mixed_report: Report) -> None:
    lines = {"fails-loudly": 45, "needs-a-service": 61}
    text = render_github(mixed_report, lines).splitlines()
    assert text[0].startswith("::error ")
    assert "line=45" in text[0] and "title=agentic-evals FAIL%3A fails-loudly" in text[0]
    assert [line.split(" ", 1)[0] for line in text] == ["::error"] + ["::warning"] * 3
    assert "needs-a-service" in text[1]  # a blocked required case ranks before an optional one


def test_at_most_ten_of_each_level_then_a_count(mixed_report: Report) -> None:
    failing = mixed_report.cases[2]
    many = [failing.model_copy(update={"name": f"f{i}", "case_id": f"s::f{i}"}) for i in range(13)]
    report = mixed_report.model_copy(update={"cases": many})
    text = render_github(report, {}).splitlines()
    assert sum(line.startswith("::error") for line in text) == 10
    assert text[-1].startswith("::notice ") and "3 more error(s) and 0 more warning(s)" in text[-1]
    message = failing.model_copy(update={"name": "a,b:c", "problems": []})
    escaped = render_github(mixed_report.model_copy(update={"cases": [message]}), {})
    assert "title=agentic-evals FAIL%3A a%2Cb%3Ac" in escaped


def test_step_summary_is_appended_and_capped(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    append_step_summary(summary, "## ours\n")
    assert summary.read_text() == "earlier step\n## ours\n"
    append_step_summary(summary, "x" * (2 * STEP_SUMMARY_LIMIT))
    text = summary.read_text()
    assert len(text.encode()) <= STEP_SUMMARY_LIMIT
    assert text.startswith("earlier step\n## ours\n") and "1 MiB limit" in text


def test_run_under_github_actions_annotates_and_writes_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = copy_sample("outputs", tmp_path / "outputs")
    summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["run", "outputs/agentic_eval.json", "-o", "r.json", "--progress", "none"]
    )
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert errors == [next(line for line in result.stdout.splitlines() if "fails-loudly" in line)]
    assert "file=outputs/agentic_eval.json,line=45" in errors[0]
    assert "### agentic-evals: outputs-sample is `USABLE_WITH_GAPS`" in summary.read_text()
    del skill


def test_a_rejected_fixture_is_annotated_at_its_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 2,\n "skill": "s",\n "trials": "three", "cases": []}')
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = CliRunner().invoke(cli, ["run", str(bad)])
    assert result.exit_code == 2
    assert any(
        line.startswith("::error ") and "line=3" in line and "AE-SCHEMA-TYPE" in line
        for line in result.stdout.splitlines()
    ), result.stdout


@pytest.mark.parametrize(
    ("fmt", "marker"),
    [
        ("markdown", "### agentic-evals: outputs-sample"),
        ("html", "<!DOCTYPE html>"),
        ("junit", "<testsuites"),
        ("github", "::error "),
        ("sarif", '"version": "2.1.0"'),
    ],
)
def test_report_renders_each_format_from_the_file(
    report_file: Path, tmp_path: Path, fmt: str, marker: str
) -> None:
    out = tmp_path / f"out.{fmt}"
    result = CliRunner().invoke(cli, ["report", str(report_file), "--format", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert marker in out.read_text()
    stdout = CliRunner().invoke(cli, ["report", str(report_file), "--format", fmt])
    assert marker in stdout.stdout


def test_report_refuses_bad_input_and_never_overwrites_it(
    report_file: Path, tmp_path: Path
) -> None:
    before = report_file.read_text()
    same = CliRunner().invoke(
        cli, ["report", str(report_file), "--format", "html", "-o", str(report_file)]
    )
    assert same.exit_code == 2 and "it is an input" in same.output
    assert report_file.read_text() == before
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"schema": "something.else"}))
    result = CliRunner().invoke(cli, ["report", str(broken), "--format", "junit"])
    assert result.exit_code == 2 and "not an agentic_evals.report.v2 report" in result.output
    device = CliRunner().invoke(
        cli, ["report", str(report_file), "--format", "junit", "-o", "/dev/null"]
    )
    assert device.exit_code == 2 and "not a regular file" in device.output


def test_run_writes_every_format_and_checks_outputs_first(tmp_path: Path) -> None:
    copy_sample("outputs", tmp_path / "outputs")
    fixture = tmp_path / "outputs" / "agentic_eval.json"
    args = ["run", str(fixture), "--progress", "none", "-o", str(tmp_path / "r.json")]
    paths = {"--junit-xml": "j.xml", "--html": "r.html", "--markdown": "r.md"}
    for flag, name in paths.items():
        args += [flag, str(tmp_path / name)]
    assert CliRunner().invoke(cli, args).exit_code == 1
    assert all((tmp_path / name).stat().st_size > 100 for name in paths.values())
    clash = CliRunner().invoke(cli, ["run", str(fixture), "--html", str(fixture)])
    assert clash.exit_code == 2 and "it is an input" in clash.output
    twice = CliRunner().invoke(
        cli, ["run", str(fixture), "--html", str(tmp_path / "x"), "--markdown", str(tmp_path / "x")]
    )
    assert twice.exit_code == 2 and "given for two outputs" in twice.output


def test_merge_writes_the_formats_and_never_over_a_shard(tmp_path: Path) -> None:
    copy_sample("outputs", tmp_path / "outputs")
    fixture = str(tmp_path / "outputs" / "agentic_eval.json")
    shards = []
    for k in (1, 2):
        shard = tmp_path / f"shard{k}.json"
        args = ["run", fixture, "--shard", f"{k}/2", "-o", str(shard), "--progress", "none"]
        CliRunner().invoke(cli, args)
        shards.append(str(shard))
    into_input = CliRunner().invoke(cli, ["merge", *shards, "-o", shards[0]])
    assert into_input.exit_code == 2 and "it is an input" in into_input.output
    junit = tmp_path / "merged.xml"
    merged = CliRunner().invoke(
        cli, ["merge", *shards, "-o", str(tmp_path / "m.json"), "--junit-xml", str(junit)]
    )
    assert merged.exit_code == 1, merged.output
    assert junit.read_text().count("<testcase ") == 8
    document = json.loads((tmp_path / "m.json").read_text())
    assert document["configuration"]["sources"]["junit_xml"] == "flag"
    missing = CliRunner().invoke(cli, ["merge", *shards, "--no-config"])
    assert missing.exit_code == 2 and "Missing option '-o'" in missing.output
