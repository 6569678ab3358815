"""Small fake skills for the shortcut tests: one live case beside an honest negative case."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from builders import make_skill

from agentic_evals.contract.load import LoadResult
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import CaseReport, Report

HONEST = """#!/bin/bash
if [ "$1" = --bad ]; then echo "unknown option: $1" >&2; exit 2; fi
mkdir -p out
python3 -c 'import json; json.dump({"ok": True}, open("out/r.json", "w"))'
echo "deployed"
"""
"""A skill program that does something: writes ``out/r.json`` (from the fixture folder)."""
READ_BACK = {"artifacts": [{"path": "out/r.json", "json_pointer": "/ok", "equals": True}]}
NEGATIVE = {
    "name": "refuses-a-bad-option",
    "type": "negative",
    "evidence_class": "deterministic",
    "command": ["bash", "../honest.sh", "--bad"],
    "expected": {"exit_code": 2, "stderr_contains": ["unknown option: --bad"]},
}


def live_case(
    command: list[str], expected: Mapping[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """A real-world positive case (declaring ``live_e2e`` by default)."""
    return {
        "name": "live",
        "type": "positive",
        "real_world": True,
        "command": command,
        "expected": {"exit_code": 0, **(READ_BACK if expected is None else expected)},
        **fields,
    }


def load_skill(root: Path, files: Mapping[str, object], case: Mapping[str, Any]) -> LoadResult:
    """Write a skill with ``files`` (and ``honest.sh``) and a fixture of ``case``; load it."""
    fixture = {"version": 2, "skill": "demo", "trials": 2, "cases": [dict(case), NEGATIVE]}
    skill = make_skill(root, "demo", files={"honest.sh": HONEST, **files}, fixture=fixture)
    return load_fixture(skill / "fixtures" / "agentic_eval.json")


def run_skill(root: Path, files: Mapping[str, object], case: Mapping[str, Any]) -> Report:
    """Write a skill with ``files`` (and ``honest.sh``) and a fixture of ``case``; run it."""
    loaded = load_skill(root, files, case)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions()).report


def live(report: Report) -> CaseReport:
    """The report of the case named ``live``."""
    return next(case for case in report.cases if case.name == "live")
