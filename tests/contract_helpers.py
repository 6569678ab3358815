"""Shared data and helpers of the contract tests (imported by conftest and tests)."""

from __future__ import annotations

from typing import Any

BASE_FIXTURE: dict[str, Any] = {
    "version": 2,
    "skill": "demo",
    "trials": 3,
    "cases": [
        {
            "name": "live-run",
            "type": "positive",
            "real_world": True,
            "command": ["bash", "../run.sh", "--check"],
            "expected": {"exit_code": 0, "stdout_contains": ["ok"]},
        },
        {
            "name": "rejects-bad-input",
            "type": "negative",
            "command": ["bash", "../run.sh", "--bad"],
            "expected": {"exit_code": 2},
        },
    ],
}
