"""Defect 13: findings are capped per code, with a count of the rest, so memory stays bounded.

A fixture with thousands of faults of one kind yields the first
``FINDINGS_PER_CODE`` findings of that code and one finding counting the others.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_helpers import cli

from agentic_evals.documents.findings import Finding, capped, finding
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.limits import FINDINGS_PER_CODE

FAULTS = 2_000


def many_faults(path: Path) -> Path:
    cases = [{"name": 1} for _ in range(FAULTS)]  # a name must be a string: one fault each
    path.write_text(json.dumps({"version": 2, "skill": "s", "cases": cases}), encoding="utf-8")
    return path


def test_d13_findings_of_one_code_are_capped_and_the_rest_counted(tmp_path: Path) -> None:
    fixture = many_faults(tmp_path / "agentic_eval.json")
    loaded = load_fixture(fixture)
    by_code: dict[str, list[Finding]] = {}
    for item in loaded.findings:
        by_code.setdefault(item.code, []).append(item)
    assert loaded.model is None
    assert all(len(items) <= FINDINGS_PER_CODE + 1 for items in by_code.values())
    summaries = [f for f in loaded.findings if "finding(s) not listed" in f.message]
    assert summaries, [f.render() for f in loaded.findings[:3]]
    left_out = sum(int(f.message.split()[0]) for f in summaries)
    assert left_out >= FAULTS - len(by_code) * FINDINGS_PER_CODE


def test_d13_validate_prints_the_cap_not_every_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = many_faults(tmp_path / "agentic_eval.json")
    ended = cli(capsys, "validate", fixture, "-o", tmp_path / "out.json")
    assert ended.code == 2
    assert len(ended.err.splitlines()) < 20 * FINDINGS_PER_CODE
    written = json.loads((tmp_path / "out.json").read_text("utf-8"))["findings"]
    assert len(written) < 20 * FINDINGS_PER_CODE


def test_d13_a_code_over_the_cap_keeps_the_severity_of_what_was_left_out() -> None:
    warnings = [finding("AE-W", f"/{i}", "w", "warning") for i in range(FINDINGS_PER_CODE + 5)]
    kept = capped(warnings)
    assert len(kept) == FINDINGS_PER_CODE + 1
    assert kept[-1].severity == "warning" and kept[-1].message.startswith("5 more AE-W")
    assert capped(warnings[:FINDINGS_PER_CODE]) == warnings[:FINDINGS_PER_CODE]
