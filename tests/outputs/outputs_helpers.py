"""Helpers of the output tests: copies of the samples, and runs through the library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from agentic_evals.contract.load import load_fixture
from agentic_evals.evaluate import RunOptions, evaluate
from agentic_evals.reports.model import Report

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "fixtures" / "samples"
SHARED = REPO.parent / "shared"


def copy_sample(name: str, target: Path) -> Path:
    """Copy ``fixtures/samples/<name>`` (a folder) to ``target``; return the copy."""
    shutil.copytree(SAMPLES / name, target, ignore=shutil.ignore_patterns("out"))
    return target


def run_fixture(path: Path, **options: object) -> Report:
    loaded = load_fixture(path)
    assert loaded.fixture is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report  # type: ignore[arg-type]


def load_json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))
