"""Load a fixture: strict parse, schema, unknown keys, semantic rules, gates, model.

:func:`load_fixture` never raises for any input document: it returns a
fixture or findings. The one exception is :class:`FixtureDriftError`, raised
when the models reject a document the generated schema accepted: the schema
and the models have drifted apart, which is a bug, not bad input.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from agentic_evals.contract.models import Fixture
from agentic_evals.contract.rules import gate_findings, semantic_findings
from agentic_evals.documents.findings import Finding, FindingsView
from agentic_evals.documents.positions import Position, locate_all
from agentic_evals.documents.unknown_keys import unknown_key_findings
from agentic_evals.documents.yaml_io import read_document

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

# Values of these keys are arbitrary JSON, where null is a value like any other.
_JSON_VALUE_KEYS = frozenset({"equals"})


class FixtureDriftError(RuntimeError):
    """The fixture schema accepted a document the models reject: an internal error."""


@dataclass(frozen=True)
class LoadResult(FindingsView):
    """What loading a fixture produced."""

    path: Path
    """The fixture path as given."""
    fixture: Fixture | None
    """The validated fixture; ``None`` when any error was found."""
    findings: list[Finding]
    """Errors first, then warnings; each names the file."""
    document: object
    """The parsed document (``None`` when it could not be parsed)."""
    source_bytes: bytes
    """The file's bytes (empty when unreadable)."""

    @property
    def ok(self) -> bool:
        """The fixture loaded without errors."""
        return self.fixture is not None and not self.errors


@functools.cache
def fixture_validator() -> Validator:
    """The validator of the generated fixture schema, built once."""
    from agentic_evals.documents.schema import make_validator
    from agentic_evals.schemas_gen import fixture_schema

    return make_validator(fixture_schema())


def _has_null(value: object) -> bool:
    """Whether ``value`` holds a null outside the keys that take any JSON value."""
    if value is None:
        return True
    if isinstance(value, list):
        return any(_has_null(item) for item in value)
    if isinstance(value, dict):
        return any(k not in _JSON_VALUE_KEYS and _has_null(v) for k, v in value.items())
    return False


def _plainly_valid(document: object) -> Fixture | None:
    """Return the model when the strict models accept ``document`` outright.

    The schema is generated from the models and a test holds them to the same
    verdict, so a document they accept has no schema errors either; only an
    explicit null, which the schema forbids for optional fields while the
    models would take it as "absent", needs the schema's word. ``None`` means:
    take the schema path, which names every error with its pointer. This keeps
    the jsonschema import and walk off the start-up of every valid run.
    """
    if _has_null(document):
        return None
    try:
        return Fixture.model_validate(document, strict=True)
    except ValidationError:
        return None


def _schema_findings(document: object, positions: Mapping[str, Position]) -> list[Finding]:
    from agentic_evals.documents.schema import schema_findings

    return schema_findings(fixture_validator(), document, positions)


def load_fixture(path: Path, *, strict: bool = False, gates: bool = True) -> LoadResult:
    """Load and check the fixture at ``path``.

    Args:
        path: A JSON (``.json``) or YAML (``.yaml``/``.yml``) fixture.
        strict: Unknown keys are errors instead of warnings.
        gates: Run the anti-slop and compliance gates (off for focused runs).

    Returns:
        The fixture when nothing is wrong, and every finding either way.

    Raises:
        FixtureDriftError: the models rejected a document the schema accepted.
    """
    parsed = read_document(path)
    findings = list(parsed.findings)
    if not parsed.parsed:
        return _result(path, None, findings, parsed.value, parsed.source, parsed.positions)
    document = parsed.value
    fixture: Fixture | None = _plainly_valid(document) if not findings else None
    if fixture is None:
        findings += _schema_findings(document, parsed.positions)
    clean = not any(finding.severity == "error" for finding in findings)
    findings += unknown_key_findings(document, Fixture, parsed.positions, strict=strict)
    fixture_dir = Path(os.path.abspath(path)).parent
    findings += semantic_findings(document, fixture_dir)
    if clean and fixture is None:
        try:
            fixture = Fixture.model_validate(document, strict=True)
        except ValidationError as exc:
            raise FixtureDriftError(
                f"{path}: the fixture schema accepted a document the models reject "
                f"(schema and models drifted): {exc}"
            ) from exc
    if clean and fixture is not None and gates:
        findings += gate_findings(fixture, fixture_dir)
    if any(finding.severity == "error" for finding in findings):
        fixture = None
    return _result(path, fixture, findings, document, parsed.source, parsed.positions)


def _result(
    path: Path,
    fixture: Fixture | None,
    findings: list[Finding],
    document: object,
    source: bytes,
    positions: Mapping[str, Position] | object,
) -> LoadResult:
    located = locate_all(findings, path, positions) if isinstance(positions, Mapping) else findings
    return LoadResult(path, fixture, located, document, source)
