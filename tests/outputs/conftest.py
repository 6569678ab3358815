"""Real runs of the sample fixtures that every output format is rendered from.

Each sample runs once per test session (in a private copy), through the same
library call ``agentic-evals run`` makes; renderers are then pure functions
over those reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from outputs_helpers import copy_sample, run_fixture

from agentic_evals.reports.model import Report


@pytest.fixture(scope="session")
def mixed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The outputs sample: passes, a loud failure, a flaky pass, a blocked case, claims."""
    return copy_sample("outputs", tmp_path_factory.mktemp("mixed") / "outputs")


@pytest.fixture(scope="session")
def mixed_report(mixed_dir: Path) -> Report:
    return run_fixture(mixed_dir / "agentic_eval.json")


@pytest.fixture(scope="session")
def ready_report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """The demo skill: every case passes, READY."""
    skill = copy_sample("demo-skill", tmp_path_factory.mktemp("ready") / "demo-skill")
    return run_fixture(skill / "agentic_eval.json")


@pytest.fixture(scope="session")
def report_file(mixed_report: Report, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.json"
    path.write_text(mixed_report.model_dump_json(by_alias=True, indent=2))
    return path
