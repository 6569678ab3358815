"""Builders for skill folders with a regression registry and a retained fixture."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
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


TALLY = '#!/bin/bash\n# prints the total of its two arguments\necho "total: $(( $1 + $2 ))"\n'
"""The skill's one script: what a structural proof puts a bug back into."""


def tally_fixture(trials: int = 2, **case: Any) -> dict[str, Any]:
    """A fixture whose case ``adds`` runs ``../tally.sh 2 3`` and expects ``total: 5``."""
    guard: dict[str, Any] = {
        "name": "adds",
        "type": "negative",
        "command": ["bash", "../tally.sh", "2", "3"],
        "expected": {"exit_code": 0, "stdout_contains": ["total: 5"]},
    }
    return {"version": 2, "skill": "tally", "trials": trials, "cases": [guard | case]}


def mutation(find: str = "$1 + $2", replace: str = "$1 - $2", **extra: Any) -> dict[str, Any]:
    """A ``fail_before_fix`` that edits ``tally.sh``."""
    return {"mutation": {"path": "tally.sh", "find": find, "replace": replace, **extra}}


def structural(regression_id: str = "reg-1", **fields: Any) -> dict[str, Any]:
    """A record whose guard is ``adds`` and whose proof (a mutation by default) is structural."""
    base: dict[str, Any] = {
        "regression_id": regression_id,
        "retained_case": "adds",
        "failure_code": "STDOUT_MISSING",
        "fail_before_fix": mutation(),
    }
    base.update(fields)
    return {key: value for key, value in base.items() if value is not None}


def tally_skill(
    root: Path,
    *records: dict[str, Any],
    name: str = "skill",
    fixture: dict[str, Any] | None = None,
    files: Mapping[str, object] | None = None,
) -> Path:
    """The skill ``root/name``: ``tally.sh``, its fixture and a registry of ``records``."""
    folder = make_skill(
        root,
        name,
        registry=registry(*records),
        fixture=fixture if fixture is not None else tally_fixture(),
        files={"tally.sh": TALLY, **(files or {})},
    )
    (folder / "tally.sh").chmod(0o755)
    return folder


def tree_state(folder: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every path under ``folder`` with its mode and content (a link's target): to show that
    nothing in a checkout changed."""
    state: dict[str, tuple[int, bytes | str]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if path.is_symlink():
            content: bytes | str = str(path.readlink())
        else:
            content = path.read_bytes() if path.is_file() else b""
        state[str(path.relative_to(folder))] = (info.st_mode, content)
    return state
