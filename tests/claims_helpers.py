"""Helpers of the claims tests: a skill tree with a production entrypoint, documents, runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from builders import PROD, RECEIPT, make_skill
from click.testing import CliRunner, Result

from agentic_evals.cli import cli
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import Report

SELFTEST = Path(__file__).resolve().parent / "claims" / "selftest"


def copy_selftest(name: str, tmp_path: Path) -> Path:
    """Copy a selftest fixture into a fresh skill tree with ``prod.sh``; returns its path."""
    skill = make_skill(tmp_path / "selftest-skill", files=PROD)
    return Path(shutil.copy(SELFTEST / name, skill / name))


def claim(
    claim_id: str = "c", required: tuple[str, ...] = ("live_e2e",), **fields: Any
) -> dict[str, Any]:
    """A critical protocol claim requiring ``required``."""
    return {
        "id": claim_id,
        "criticality": "critical",
        "claim_semantics": "protocol",
        "evidence_required": list(required),
        **fields,
    }


def live_case(
    name: str = "live", claims: tuple[str, ...] = ("c",), **fields: Any
) -> dict[str, Any]:
    """A qualifying live case: it runs ``prod.sh`` and reads its receipt back."""
    return {
        "name": name,
        "type": "positive",
        "evidence_class": "live_e2e",
        "supports_claims": list(claims),
        "command": ["bash", "prod.sh"],
        "expected": {"exit_code": 0, "artifacts": [RECEIPT]},
        **fields,
    }


def det_case(
    name: str = "det", claims: tuple[str, ...] = ("c",), *, passes: bool = True, **fields: Any
) -> dict[str, Any]:
    """A deterministic case (``exit 3`` with a refusal on stderr) that passes or fails."""
    return {
        "name": name,
        "type": "negative",
        "evidence_class": "deterministic",
        "supports_claims": list(claims),
        "command": ["bash", "-c", "echo 'refused: bad input' >&2; exit 3"],
        "expected": {"exit_code": 3 if passes else 0, "stderr_contains": ["refused: bad input"]},
        **fields,
    }


def document(
    claims: list[dict[str, Any]], cases: list[dict[str, Any]], **top: Any
) -> dict[str, Any]:
    """A runner self-test fixture (exempt from the gates) with these claims and cases."""
    return {
        "version": 2,
        "skill": "claims-test",
        "eval_kind": "runner_selftest",
        "trials": 2,
        "capability_claims": claims,
        "cases": cases,
        **top,
    }


def write(directory: Path, doc: dict[str, Any], name: str = "agentic_eval.json") -> Path:
    """Write ``doc`` into ``directory`` (made a skill tree with ``prod.sh``)."""
    make_skill(directory, files=PROD)
    path = directory / name
    path.write_text(json.dumps(doc, indent=2))
    return path


def run_doc(directory: Path, doc: dict[str, Any], **options: Any) -> Report:
    """Load and evaluate ``doc`` in-process; the fixture must load."""
    loaded = load_fixture(write(directory, doc))
    assert loaded.ok, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


def cli_run(fixture: Path, *args: str) -> tuple[Result, dict[str, Any]]:
    """Run ``agentic-evals run FIXTURE`` through the CLI; return the result and the report."""
    output = fixture.parent / f"{fixture.stem}-report.json"
    result = CliRunner().invoke(
        cli, ["run", str(fixture), "-o", str(output), *args], catch_exceptions=False
    )
    report = json.loads(output.read_text()) if output.exists() else {}
    return result, report


def claim_of(report: Report, claim_id: str = "c") -> Any:
    """The judged claim ``claim_id`` of an in-process report."""
    assert report.capability_readiness is not None
    return next(c for c in report.capability_readiness.claims if c.id == claim_id)
