"""Load a fixture through the one document pipeline (SPEC section 1).

:func:`load_fixture` never raises for any input document: it returns a
fixture or findings (see :mod:`agentic_evals.documents.pipeline` for the
steps). The one exception is :class:`~agentic_evals.documents.pipeline.DriftError`,
raised when the models reject a document the generated schema accepted.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from agentic_evals.contract.models import Fixture
from agentic_evals.contract.rules import gate_findings, semantic_findings
from agentic_evals.contract.schema import FIXTURE_DOCUMENT
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.pipeline import DocumentKind, Loaded, load_document

LoadResult = Loaded[Fixture]
"""What loading a fixture produced: the fixture (``model``) or the findings."""


def fixture_dir(path: Path) -> Path:
    """The directory a fixture's relative paths start from."""
    return Path(os.path.abspath(path)).parent


def _semantic(document: object, path: Path) -> list[Finding]:
    return semantic_findings(document, fixture_dir(path))


def _gates(fixture: Fixture, path: Path) -> list[Finding]:
    return gate_findings(fixture, fixture_dir(path))


FIXTURE: DocumentKind[Fixture] = DocumentKind(
    name="fixture",
    model=Fixture,
    schema=FIXTURE_DOCUMENT.build,
    rules=_semantic,
    trusts_model=True,
    # Values of these keys are arbitrary JSON, where null is a value like any other.
    json_value_keys=frozenset({"equals"}),
)
GATED_FIXTURE = dataclasses.replace(FIXTURE, checks=_gates)


def load_fixture(path: Path, *, strict: bool = False, gates: bool = True) -> LoadResult:
    """Load and check the fixture at ``path``.

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
