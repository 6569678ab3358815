"""Builders for skill folders with a regression registry and a retained fixture."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from builders import make_skill

from agentic_evals import clock

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


def guarded_skill(
    root: Path,
    document: object,
    *,
    name: str = "skill",
    fixture: dict[str, Any] | None = None,
) -> Path:
    """The skill ``root/name`` with registry ``document``, guarded by ``agentic_eval.json``.

    The retained fixture defaults to one whose case ``guard`` passes.
    """
    retained = fixture if fixture is not None else fixture_doc("guard")
    return make_skill(root, name, registry=document, fixture=retained)


def freeze_today(monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    """Make :func:`agentic_evals.clock.today` return ``day``."""
    frozen = dt.date.fromisoformat(day)
    monkeypatch.setattr(clock, "today", lambda: frozen)
