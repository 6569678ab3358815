"""Helpers of the output tests: copies of the samples, and runs through the library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from builders import REPO, SHARED

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import Report

SAMPLES = REPO / "fixtures" / "samples"

__all__ = ["REPO", "SAMPLES", "SHARED", "copy_sample", "load_json", "run_fixture"]


def copy_sample(name: str, target: Path) -> Path:
    """Copy ``fixtures/samples/<name>`` (a folder) to ``target``; return the copy."""
    shutil.copytree(SAMPLES / name, target, ignore=shutil.ignore_patterns("out"))
    return target


def run_fixture(path: Path, **options: Any) -> Report:
    loaded = load_fixture(path)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
