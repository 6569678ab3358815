"""Shared data of the contract tests (imported by conftest and tests)."""

from __future__ import annotations

from typing import Any

from builders import case, fixture

BASE_FIXTURE: dict[str, Any] = fixture(
    [
        case(
            "live-run",
            command=["bash", "../run.sh", "--check"],
            expected={"exit_code": 0, "stdout_contains": ["ok"]},
            real_world=True,
        ),
        case("rejects-bad-input", "negative", ["bash", "../run.sh", "--bad"], {"exit_code": 2}),
    ],
    trials=3,
)
"""A fixture that passes every rule and gate (in a skill tree with a ``run.sh``)."""
