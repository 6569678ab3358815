"""Read a fixture through the one document pipeline.

:func:`read_fixture` checks the contract alone: strict parse, expansion
(defaults, parametrized cases, placeholders), schema, unknown keys, the
semantic and claim rules, the model. It never raises for any input
document: it returns a fixture or findings (see
:mod:`agentic_evals.documents.pipeline`). The one exception is
:class:`~agentic_evals.documents.pipeline.DriftError`, raised when the models
reject a document the generated schema accepted. The load-time gates, which
read commands and evidence, are added on top by
:func:`agentic_evals.evidence.gates.load_fixture`.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentic_evals.contract.expansion import expand_fixture
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.rules import semantic_findings
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


FIXTURE: DocumentKind[Fixture] = DocumentKind(
    name="fixture",
    model=Fixture,
    schema=FIXTURE_DOCUMENT.build,
    rules=_semantic,
    trusts_model=True,
    # Values of these keys are arbitrary JSON, where null is a value like any other.
    json_value_keys=frozenset({"equals"}),
    expand=expand_fixture,
)


def read_fixture(path: Path, *, strict: bool = False) -> LoadResult:
    """Read and check the fixture at ``path`` against the contract (no load-time gates).

    Raises:
        DriftError: the models rejected a document the schema accepted.
    """
    return load_document(path, FIXTURE, strict=strict)
