"""The one load pipeline: strict parse, schema, unknown keys, rules, model, locate.

Every document kind agentic-evals reads goes through :func:`load_document`,
which never raises for bad input: it returns the model, or findings that say
why there is none, each located by file, pointer, line and column and put in
the one order of :func:`~agentic_evals.documents.findings.ordered`. The one
exception is :class:`DriftError`: the models rejected a document the schema
generated from them accepted, which is a bug, not bad input.

Steps, for a :class:`DocumentKind`:

1. parse the file strictly (JSON or YAML by extension; duplicate keys,
   non-finite numbers and unknown YAML tags are errors); a file that cannot be
   parsed stops here;
2. ``foreign``: a document that declares another format is one finding, and
   stops here (so that an audit can tell "not ours" from "ours and broken");
   then ``expand``: the kinds checked in an expanded form (a fixture's
   defaults and parametrized cases) are expanded, and every later step reads
   the expanded document;
3. the kind's JSON Schema: every error, in document order. A kind that
   ``trusts_model`` skips it when the strict models accept the document
   outright (the schema is generated from them, and a test holds the two to
   the same verdict), which keeps jsonschema off the start-up of valid runs;
4. unknown keys, walking the models (warnings; errors under ``strict``), for
   the kinds whose schema leaves extra keys open;
5. the kind's ``rules`` over the raw document (they run, and report, even
   when the schema found errors elsewhere);
6. the model, when no error was found so far; then the ``checks`` over the
   model (the load-time gates of a fixture, for instance);
7. any error leaves the model out.

Every finding is finally taken back to the document as written (its
pointer, line and column those of the value it came from; see
:mod:`~agentic_evals.documents.expansion`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from agentic_evals.documents.expansion import Expanded, WrittenPositions
from agentic_evals.documents.findings import Finding, FindingsView, capped
from agentic_evals.documents.positions import Position, locate, locate_all
from agentic_evals.documents.schema_gen import SCHEMA_KEY
from agentic_evals.documents.unknown_keys import unknown_key_findings
from agentic_evals.documents.yaml_io import read_document

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

M = TypeVar("M", bound=BaseModel)
RawRules = Callable[[object, Path], list[Finding]]
"""Rules over a raw document found at a path: they read it defensively."""


class DriftError(RuntimeError):
    """A schema accepted a document its models reject: an internal error."""


def _no_rules(_document: object, _path: Path) -> list[Finding]:
    return []


@dataclass(frozen=True)
class DocumentKind(Generic[M]):
    """How one kind of document is checked; see the module docstring for the steps."""

    name: str
    """What the document is, in messages ("fixture", "regression registry")."""
    model: type[M]
    """The model the document must validate into (strict)."""
    schema: Callable[[], Mapping[str, Any]]
    """Builds the kind's JSON Schema (generated from ``model``)."""
    unknown_keys: bool = True
    """Walk the models for unknown keys (for kinds whose schema leaves them open)."""
    rules: RawRules = _no_rules
    """Rules over the raw document."""
    checks: Callable[[M, Path], list[Finding]] | None = None
    """Rules over the validated model."""
    foreign: Callable[[object], Finding | None] | None = None
    """Says when a document declares another format."""
    trusts_model: bool = False
    """Skip the schema walk when the strict models accept the document outright."""
    json_value_keys: frozenset[str] = field(default_factory=frozenset)
    """Keys whose values are any JSON, where ``null`` is a value like any other."""
    rules_replace_schema: bool = False
    """A rule's finding replaces the schema's findings at or below its pointer: the rule
    says more precisely what is wrong there."""
    expand: Callable[[object], Expanded] | None = None
    """The expanded form the document is checked in (None: as written)."""


@dataclass(frozen=True)
class Loaded(FindingsView, Generic[M]):
    """What loading a document produced."""

    path: Path
    """The document's path as given."""
    model: M | None
    """The validated model; ``None`` when any error was found."""
    findings: list[Finding]
    """Every finding, located, in the one order (errors first)."""
    document: object
    """The parsed document (``None`` when it could not be parsed)."""
    source: bytes
    """The file's bytes (empty when unreadable)."""
    positions: Mapping[str, Position]
    """Pointer to (line, column) of every value of the document as written."""
    expansion: Expanded = field(default_factory=lambda: Expanded(None))
    """How ``document`` maps back to the document as written."""

    @property
    def ok(self) -> bool:
        """The document loaded without errors."""
        return self.model is not None and not self.errors

    def locate(self, finding: Finding) -> Finding:
        """``finding`` (pointing into ``document``) about the file as written.

        Its pointer becomes the written value's, with this file's name, line and column.
        """
        return locate(self.expansion.written(finding), self.path, self.positions)


def validator(kind: DocumentKind[M]) -> Validator:
    """The validator of the kind's schema, built once."""
    return _validator(kind.schema)


@functools.cache
def _validator(schema: Callable[[], Mapping[str, Any]]) -> Validator:
    from agentic_evals.documents.schema import make_validator

    return make_validator(schema())


def _has_null(value: object, json_value_keys: frozenset[str]) -> bool:
    """Whether ``value`` holds a null outside the keys that take any JSON value."""
    if value is None:
        return True
    if isinstance(value, list):
        return any(_has_null(item, json_value_keys) for item in value)
    if isinstance(value, dict):
        return any(
            k not in json_value_keys and _has_null(v, json_value_keys) for k, v in value.items()
        )
    return False


def without_schema_key(document: object) -> object:
    """``document`` without its top-level ``$schema``, which no model holds (editors' key)."""
    if isinstance(document, dict) and SCHEMA_KEY in document:
        return {key: value for key, value in document.items() if key != SCHEMA_KEY}
    return document


def trusted(kind: DocumentKind[M], document: object) -> M | None:
    """The model, when the strict models accept ``document`` outright and may be trusted.

    Only an explicit null, which the schema forbids for optional fields while
    the models take it as "absent", needs the schema's word.
    """
    if not kind.trusts_model or _has_null(document, kind.json_value_keys):
        return None
    try:
        return kind.model.model_validate(without_schema_key(document), strict=True)
    except ValidationError:
        return None


def _errors(findings: list[Finding]) -> bool:
    return any(finding.severity == "error" for finding in findings)


def _covered(item: Finding, ruled: list[Finding]) -> bool:
    return any(
        item.pointer == rule.pointer or item.pointer.startswith(rule.pointer + "/")
        for rule in ruled
    )


def load_document(path: Path, kind: DocumentKind[M], *, strict: bool = False) -> Loaded[M]:
    """Load and check the ``kind`` document at ``path``.

    Args:
        path: A JSON (``.json``) or YAML (``.yaml``/``.yml``) document.
        kind: What the document must be.
        strict: Unknown keys are errors instead of warnings.

    Raises:
        DriftError: the models rejected a document the schema accepted.
    """
    parsed = read_document(path)
    findings = list(parsed.findings)
    document = parsed.value
    expansion = Expanded(document)
    positions: Mapping[str, Position] = parsed.positions

    def result(model: M | None) -> Loaded[M]:
        written = expansion.written_all(findings) + expansion.written_findings
        located = locate_all(capped(written), path, parsed.positions)
        return Loaded(path, model, located, document, parsed.source, parsed.positions, expansion)

    foreign = kind.foreign(document) if kind.foreign and parsed.parsed else None
    if not parsed.parsed or foreign is not None:
        findings += [foreign] if foreign else []
        return result(None)
    if kind.expand is not None:
        expansion = kind.expand(document)
        document = expansion.document
        positions = WrittenPositions(expansion, parsed.positions)
        findings += expansion.findings
    model = trusted(kind, document) if not findings and not expansion.written_findings else None
    if model is None:
        from agentic_evals.documents.schema import schema_findings

        findings += schema_findings(validator(kind), document, positions)
    clean = not _errors(findings) and not _errors(expansion.written_findings)
    if kind.unknown_keys:
        findings += unknown_key_findings(document, kind.model, positions, strict=strict)
    ruled = kind.rules(document, path)
    if kind.rules_replace_schema:
        findings = [item for item in findings if not _covered(item, ruled)]
    findings += ruled
    if clean and model is None:
        try:
            model = kind.model.model_validate(without_schema_key(document), strict=True)
        except ValidationError as exc:
            raise DriftError(
                f"{path}: the {kind.name} schema accepted a document the models reject "
                f"(schema and models drifted): {exc}"
            ) from exc
    if clean and model is not None and kind.checks is not None:
        findings += kind.checks(model, path)
    return result(None if _errors(findings) or _errors(expansion.written_findings) else model)
