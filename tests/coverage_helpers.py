"""Helpers of the coverage tests: skill folders with fixtures, seams, cases and registries."""

from __future__ import annotations

from typing import Any

from builders import RECEIPT


def seam(seam_id: str, *required: str, **fields: Any) -> dict[str, Any]:
    """A critical seam requiring ``required`` (default deterministic)."""
    return {
        "seam_id": seam_id,
        "seam_type": "typed-boundary",
        "criticality": "critical",
        "required_evidence": list(required or ("deterministic",)),
        **fields,
    }


def case(name: str, *seams: str, **fields: Any) -> dict[str, Any]:
    """A deterministic negative case guarding ``seams`` that can fail (exit 2 and a message)."""
    body: dict[str, Any] = {
        "name": name,
        "type": "negative",
        "evidence_class": "deterministic",
        "seams": list(seams),
        "command": ["bash", "../prod.sh", "--bad"],
        "expected": {"exit_code": 2, "stderr_contains": ["refused --bad"]},
    }
    body.update(fields)
    return body


def bare_case(name: str, *seams: str, **fields: Any) -> dict[str, Any]:
    """A bare positive case: nothing but ``exit_code: 0``."""
    return case(name, *seams, type="positive", expected={"exit_code": 0}, **fields)


def live_case(name: str, *seams: str, readback: bool = True, **fields: Any) -> dict[str, Any]:
    """A live case running the skill's ``prod.sh``; with ``readback`` its receipt is read back."""
    expected: dict[str, Any] = {"exit_code": 0, "stdout_contains": ["settled"]}
    if readback:
        expected["artifacts"] = [RECEIPT]
    return case(
        name,
        *seams,
        type="positive",
        evidence_class="live_e2e",
        real_world=True,
        command=["bash", "../prod.sh"],
        expected=expected,
        **fields,
    )


def fixture(
    cases: list[dict[str, Any]], seams: list[dict[str, Any]] | None = None, **fields: Any
) -> dict[str, Any]:
    """A fixture document of the skill ``demo``."""
    return {
        "version": 2,
        "skill": "demo",
        "trials": 2,
        "seams": seams or [],
        "cases": cases,
        **fields,
    }


def regression(regression_id: str, *seams: str, **fields: Any) -> dict[str, Any]:
    """A regression record naming ``seams``."""
    return {
        "regression_id": regression_id,
        "retained_case": "guard",
        "seam_ids": list(seams),
        **fields,
    }


def registry(*records: dict[str, Any]) -> dict[str, Any]:
    """A registry holding ``records``."""
    return {"schema": "agentic_evals.regressions.v1", "regressions": list(records)}
