"""Defect 4: file names and strings from a trial are data, escaped in the report, never a crash.

A trial that creates a non-UTF-8 file name and writes JSON holding a lone
surrogate (``"\\ud800"``) that checks read; fixture and output paths that are
not UTF-8; a surrogate in an enum field given to ``validate -o``. Every report
format is written, valid UTF-8, with each such character as its escape.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hostile_helpers import Inputs, cli, small_fixture

from agentic_evals.reports.json_out import printable

MAKES_HOSTILE_FILES = (
    "import os; os.makedirs('out', exist_ok=True); "
    "open(b'out/x\\xff.json', 'w').write('{\"a\": \"\\\\ud800\"}'); "
    "open('out/s.json', 'w').write('{\"a\": \"\\\\ud800\"}'); "
    "print('\\udcff', end='')"
)


def hostile_fixture(directory: Path) -> Path:
    document = {
        "version": 2,
        "skill": "s",
        "eval_kind": "runner_selftest",
        "trials": 1,
        "cases": [
            {
                "name": "names",
                "type": "positive",
                "command": [sys.executable, "-c", MAKES_HOSTILE_FILES],
                "expected": {
                    "exit_code": 0,
                    "artifacts": [
                        {"glob": "out/*.json", "json_pointer": "/a", "equals": "x"},
                        {"path": "out/s.json", "json_pointer": "/a", "equals": "y"},
                        {"path": "out/s.json", "content_regex": "zz"},
                    ],
                },
            }
        ],
    }
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "agentic_eval.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_d04_a_trial_with_hostile_names_and_strings_is_reported_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = hostile_fixture(tmp_path / "skill")
    out = tmp_path / "out"
    ended = cli(
        capsys, "run", fixture, "-v", "-o", out / "r.json", "--html", out / "r.html",
        "--junit-xml", out / "r.xml", "--markdown", out / "r.md",
    )  # fmt: skip
    assert ended.code == 1, ended
    texts = {name: (out / name).read_bytes().decode("utf-8") for name in os.listdir(out)}
    report = json.loads(texts["r.json"])
    messages = [
        check["message"]
        for case in report["cases"]
        for trial in case["trials"]
        for check in trial.get("checks", trial.get("oracles", []))
        if isinstance(check, dict) and "message" in check
    ]
    assert any("x\\udcff.json" in m for m in messages) or "x\\\\udcff.json" in texts["r.json"]
    assert "\\udcff" in texts["r.md"] and "\\udcff" in texts["r.html"]
    assert all(printable(text) == text for text in texts.values())


def test_d04_a_fixture_path_that_is_not_utf8_is_written_escaped(
    inputs: Inputs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = os.fsdecode(b"fx\xff.json")
    fixture = tmp_path / name
    fixture.write_bytes(inputs.fixture.read_bytes())
    output = tmp_path / "findings.json"
    assert cli(capsys, "validate", fixture, "-o", output).code == 0
    assert json.loads(output.read_bytes())["files"][0]["path"].endswith("fx\\udcff.json")
    ran = cli(capsys, "run", fixture, "-q", "-o", tmp_path / "r.json")
    assert ran.code == 0
    assert json.loads((tmp_path / "r.json").read_bytes())["source"].endswith("fx\\udcff.json")


def test_d04_an_output_path_that_is_not_utf8_is_written(
    inputs: Inputs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / os.fsdecode(b"r\xff.json")
    ended = cli(capsys, "run", inputs.fixture, "-q", "-o", output)
    assert ended.code == 0 and json.loads(output.read_bytes())["readiness"]


def test_d04_a_surrogate_in_an_enum_field_is_a_finding_written_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = small_fixture(tmp_path)
    fixture.write_text(
        fixture.read_text("utf-8").replace('"runner_selftest"', '"\\ud800"'), "utf-8"
    )
    output = tmp_path / "findings.json"
    ended = cli(capsys, "validate", fixture, "-o", output)
    assert ended.code == 2
    findings = json.loads(output.read_bytes())["findings"]
    assert any(f["pointer"] == "/eval_kind" for f in findings), findings
