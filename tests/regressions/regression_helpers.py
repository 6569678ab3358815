"""Builders for skill folders with a regression registry and a retained fixture."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import clock

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "agent-skills"
SCHEMA = "agentic_evals.regressions.v1"


def fixture_doc(*names: str, command: list[str] | None = None) -> dict[str, Any]:
    """A version 2 fixture whose cases (named ``names``) pass with ``command``."""
    return {
        "version": 2,
        "skill": "demo",
        "trials": 1,
        "cases": [
            {
                "name": name,
                "type": "negative",
                "command": command or ["bash", "-c", "echo guarded; exit 3"],
                "expected": {"exit_code": 3, "stdout_contains": ["guarded"]},
            }
            for name in names
        ],
    }


def record(regression_id: str = "reg-1", **fields: Any) -> dict[str, Any]:
    """A regression record guarded by case ``guard`` of ``agentic_eval.json``."""
    base: dict[str, Any] = {
        "regression_id": regression_id,
        "retained_case": "guard",
        "failure_code": "GUARD_CAUGHT_IT",
        "last_proven": "2026-01-01",
        "fail_before_fix": {"proof_command": ["bash", "-c", "echo GUARD_CAUGHT_IT; exit 1"]},
    }
    base.update(fields)
    return {key: value for key, value in base.items() if value is not None}


def registry(*records: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A registry document holding ``records``."""
    return {"schema": SCHEMA, "regressions": list(records), **top}


def make_skill(
    root: Path,
    document: object,
    *,
    name: str = "skill",
    fixture: dict[str, Any] | None = None,
) -> Path:
    """Write ``name/fixtures/regressions.json`` (and ``agentic_eval.json``) under ``root``."""
    skill = root / name
    (skill / "fixtures").mkdir(parents=True, exist_ok=True)
    text = document if isinstance(document, str) else json.dumps(document, indent=2)
    (skill / "fixtures" / "regressions.json").write_text(text)
    retained = fixture if fixture is not None else fixture_doc("guard")
    (skill / "fixtures" / "agentic_eval.json").write_text(json.dumps(retained, indent=2))
    return skill


def freeze_today(monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    """Make :func:`agentic_evals.clock.today` return ``day``."""
    frozen = dt.date.fromisoformat(day)
    monkeypatch.setattr(clock, "today", lambda: frozen)
