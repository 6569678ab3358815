"""Load a regression registry through the one document pipeline (SPEC section 8).

:func:`load_registry` never raises for any input document: it returns a
registry or findings, each with file, pointer, line and column. A document
that declares another format (a ``schema`` or ``schema_version`` other than
``agentic_evals.regressions.v1``) is one AE-REG-FOREIGN finding, so that a
tree audit can tell "not ours" from "ours and broken". The one exception is
:class:`~agentic_evals.documents.pipeline.DriftError`: the models rejected a
document the generated schema accepted, which is a bug, not bad input.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.pipeline import DocumentKind, Loaded, load_document
from agentic_evals.regressions.models import REGISTRY_SCHEMA, RegressionRegistry
from agentic_evals.regressions.proof_rules import proof_findings
from agentic_evals.regressions.rules import registry_findings
from agentic_evals.regressions.schema import REGISTRY_DOCUMENT

RegistryLoad = Loaded[RegressionRegistry]
"""What loading a registry produced: the registry (``model``) or the findings."""


def foreign_format(document: object) -> str | None:
    """The format a document declares when it is not ours (``None``: ours, or undeclared)."""
    if not isinstance(document, dict):
        return None
    for key in ("schema", "schema_version"):
        declared = document.get(key)
        if isinstance(declared, str) and declared != REGISTRY_SCHEMA:
            return declared
        if key in document:
            return None
    return None


def is_foreign(loaded: RegistryLoad) -> bool:
    """The file is some other format's document, not an agentic-evals registry."""
    return any(item.code == codes.REG_FOREIGN for item in loaded.findings)


def _foreign(document: object) -> Finding | None:
    declared = foreign_format(document)
    if declared is None:
        return None
    message = f"not an agentic-evals regression registry: it declares {declared!r}"
    return finding(codes.REG_FOREIGN, "", message)


def _rules(document: object, path: Path) -> list[Finding]:
    in_fixtures = Path(os.path.abspath(path)).parent.name == "fixtures"
    return registry_findings(document, in_fixtures_dir=in_fixtures) + proof_findings(
        document, in_fixtures_dir=in_fixtures
    )


REGISTRY: DocumentKind[RegressionRegistry] = DocumentKind(
    name="regression registry",
    model=RegressionRegistry,
    schema=REGISTRY_DOCUMENT.build,
    rules=_rules,
    foreign=_foreign,
)


def load_registry(path: Path) -> RegistryLoad:
    """Load and check the regression registry at ``path`` (JSON, or YAML by extension).

    Raises:
        DriftError: the models rejected a document the schema accepted.
    """
    return load_document(path, REGISTRY)
