"""The load-time gates (SPEC section 2), and the fixture loader that applies them.

A fixture whose cases could prove nothing is rejected before anything runs:
the anti-slop gate (:mod:`.anti_slop`) and, for ``eval_tier: compliance``,
the compliance tier (:mod:`.compliance`). ``runner_selftest`` and
``scaffold`` fixtures are honest exemptions. The gates read every case's
command structurally, and what a case's checks can prove, so they sit above
the contract: :func:`load_fixture` is the contract's loader
(:func:`agentic_evals.contract.load.read_fixture`) with the gates added.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from agentic_evals.contract.load import FIXTURE, LoadResult, fixture_dir
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import GATE_EXEMPT_KINDS
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.pipeline import load_document
from agentic_evals.evidence.anti_slop import anti_slop_findings
from agentic_evals.evidence.compliance import compliance_findings
from agentic_evals.evidence.facts import evidence_table


def gate_findings(fixture: Fixture, directory: Path) -> list[Finding]:
    """The anti-slop and compliance gates over ``fixture`` (in ``directory``).

    Nothing for exempt eval kinds.
    """
    if fixture.eval_kind in GATE_EXEMPT_KINDS:
        return []
    table = evidence_table(fixture, directory)
    analyses = [facts.analysis for facts in table.values()]
    return anti_slop_findings(fixture, table) + compliance_findings(fixture, analyses)


def _gates(fixture: Fixture, path: Path) -> list[Finding]:
    return gate_findings(fixture, fixture_dir(path))


GATED_FIXTURE = dataclasses.replace(FIXTURE, checks=_gates)


def load_fixture(path: Path, *, strict: bool = False, gates: bool = True) -> LoadResult:
    """Load and check the fixture at ``path``: the contract, then the gates.

    Args:
        path: A JSON (``.json``) or YAML (``.yaml``/``.yml``) fixture.
        strict: Unknown keys are errors instead of warnings.
        gates: Run the anti-slop and compliance gates (off for focused runs).

    Returns:
        The fixture when nothing is wrong, and every finding either way.

    Raises:
        DriftError: the models rejected a document the schema accepted.
    """
    return load_document(path, GATED_FIXTURE if gates else FIXTURE, strict=strict)
