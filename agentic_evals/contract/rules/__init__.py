"""Load-time rules: semantic checks beyond the schema, and the gates of SPEC section 2."""

from __future__ import annotations

from pathlib import Path

from agentic_evals.contract.models import Fixture
from agentic_evals.contract.rules.anti_slop import anti_slop_findings, case_analyses
from agentic_evals.contract.rules.compliance import compliance_findings
from agentic_evals.contract.rules.semantic import semantic_findings
from agentic_evals.documents.findings import Finding

GATE_EXEMPT_KINDS = frozenset({"runner_selftest", "scaffold"})
"""Eval kinds that are honest exemptions from the gates."""


def gate_findings(fixture: Fixture, fixture_dir: Path) -> list[Finding]:
    """The anti-slop and compliance gates; nothing for exempt eval kinds."""
    if fixture.eval_kind in GATE_EXEMPT_KINDS:
        return []
    analyses = case_analyses(fixture, fixture_dir)
    return anti_slop_findings(fixture, analyses) + compliance_findings(fixture, analyses)


__all__ = ["GATE_EXEMPT_KINDS", "gate_findings", "semantic_findings"]
