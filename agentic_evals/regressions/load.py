"""Load a regression registry: strict parse, schema, unknown keys, semantic rules, model.

:func:`load_registry` never raises for any input document: it returns a
registry or findings, each with file, pointer, line and column. A document
that declares another format (a ``schema`` or ``schema_version`` other than
``agentic_evals.regressions.v1``) is one AE-REG-FOREIGN finding, so that a
tree audit can tell "not ours" from "ours and broken". The one exception is
:class:`RegistryDriftError`: the models rejected a document the generated
schema accepted, which is a bug, not bad input.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, FindingsView
from agentic_evals.documents.positions import Position, locate_all
from agentic_evals.documents.unknown_keys import unknown_key_findings
from agentic_evals.documents.yaml_io import read_document
from agentic_evals.regressions.models import REGISTRY_SCHEMA, RegressionRegistry
from agentic_evals.regressions.rules import registry_findings

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


class RegistryDriftError(RuntimeError):
    """The registry schema accepted a document the models reject: an internal error."""


@dataclass(frozen=True)
class RegistryLoad(FindingsView):
    """What loading a registry produced."""

    path: Path
    """The registry path as given."""
    registry: RegressionRegistry | None
    """The validated registry; ``None`` when any error was found."""
    findings: list[Finding]
    """Errors first, then warnings; each names the file."""
    document: object
    """The parsed document (``None`` when it could not be parsed)."""
    source: bytes
    """The file's bytes (empty when unreadable)."""

    @property
    def foreign(self) -> bool:
        """The file is some other format's document, not an agentic-evals registry."""
        return any(finding.code == codes.REG_FOREIGN for finding in self.findings)


@functools.cache
def registry_validator() -> Validator:
    """The validator of the generated registry schema, built once."""
    from agentic_evals.documents.schema import make_validator
    from agentic_evals.schemas_gen import regressions_schema

    return make_validator(regressions_schema())


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


def load_registry(path: Path) -> RegistryLoad:
    """Load and check the regression registry at ``path`` (JSON, or YAML by extension).

    Raises:
        RegistryDriftError: the models rejected a document the schema accepted.
    """
    parsed = read_document(path)
    findings = list(parsed.findings)
    document = parsed.value
    if not parsed.parsed or findings:
        return _result(path, None, findings, document, parsed.source, parsed.positions)
    declared = foreign_format(document)
    if declared is not None:
        message = f"not an agentic-evals regression registry: it declares {declared!r}"
        foreign = Finding(code=codes.REG_FOREIGN, severity="error", pointer="", message=message)
        return _result(path, None, [foreign], document, parsed.source, parsed.positions)
    from agentic_evals.documents.schema import schema_findings

    findings += schema_findings(registry_validator(), document, parsed.positions)
    clean = not findings
    findings += unknown_key_findings(document, RegressionRegistry, parsed.positions)
    in_fixtures = Path(os.path.abspath(path)).parent.name == "fixtures"
    findings += registry_findings(document, in_fixtures_dir=in_fixtures)
    registry = None
    if clean:
        try:
            registry = RegressionRegistry.model_validate(document, strict=True)
        except ValidationError as exc:
            raise RegistryDriftError(
                f"{path}: the registry schema accepted a document the models reject "
                f"(schema and models drifted): {exc}"
            ) from exc
    if any(finding.severity == "error" for finding in findings):
        registry = None
    return _result(path, registry, findings, document, parsed.source, parsed.positions)


def _result(
    path: Path,
    registry: RegressionRegistry | None,
    findings: list[Finding],
    document: object,
    source: bytes,
    positions: Mapping[str, Position],
) -> RegistryLoad:
    # Errors first, then in document order.
    ordered = sorted(locate_all(findings, path, positions), key=_order)
    return RegistryLoad(path, registry, ordered, document, source)


def _order(finding: Finding) -> tuple[bool, int, int, str]:
    """Errors first, then in document order."""
    return (finding.severity != "error", finding.line or 0, finding.column or 0, finding.pointer)
