"""Helpers for the contract tests: a skill tree on disk and fixture documents."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import RUN_OK, make_skill
from contract_helpers import BASE_FIXTURE


@pytest.fixture
def fixtures_dir(tmp_path: Path) -> Path:
    """``<tmp>/skill/fixtures`` inside a skill tree that has ``run.sh``."""
    return make_skill(tmp_path / "skill", files={**RUN_OK, "fixtures/": None}) / "fixtures"


@pytest.fixture
def base_doc() -> dict[str, Any]:
    """A fresh copy of a fixture that passes every rule and gate."""
    return copy.deepcopy(BASE_FIXTURE)


WriteFixture = Callable[..., Path]


@pytest.fixture
def write_fixture(fixtures_dir: Path) -> WriteFixture:
    """Write a document (or raw text) into the skill's fixtures/ and return its path."""

    def write(document: Any, name: str = "agentic_eval.json") -> Path:
        path = fixtures_dir / name
        if isinstance(document, str):
            path.write_text(document, encoding="utf-8")
        elif name.endswith((".yaml", ".yml")):
            path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
        else:
            path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        return path

    return write
