"""Read the inputs of ``plan-journeys`` strictly; every problem is a located finding.

Each document is parsed by the strict JSON/YAML reader, checked for selector
fallbacks (a control named by CSS, XPath or text instead of its QID:
``AE-JOURNEY-SELECTOR``, naming the offending value), then validated by its
model. Nothing here raises for bad input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from agentic_evals import codes
from agentic_evals.documents.findings import Finding
from agentic_evals.documents.positions import Position, locate, pointer_to
from agentic_evals.documents.yaml_io import read_document
from agentic_evals.skills.journeys.inputs import QID_PATTERN

M = TypeVar("M", bound=BaseModel)

SELECTOR_KEYS = ("selector", "css", "xpath", "locator")
"""Keys that name a control by selector; where a QID is expected, they are rejected."""
_QID = re.compile(QID_PATTERN)
# Where each kind of document names controls: (list, None) when the list's items are
# control references; (list, key) when each item holds its references under ``key``.
_CONTROL_LISTS = {
    "requirements": (("requirements", "controls"), ("requirements", "oracles")),
    "state_graph": (("transitions", None),),
    "inventory": (("controls", None),),
}
_TYPE_CODES = {"missing": codes.SCHEMA_REQUIRED, "extra_forbidden": codes.SCHEMA_UNKNOWN}


@dataclass(frozen=True)
class Loaded(Generic[M]):
    """A document read from a file: the model (``None`` on any error) and its findings."""

    path: Path
    model: M | None
    findings: list[Finding]
    source: bytes
    positions: Mapping[str, Position]

    def locate(self, finding: Finding) -> Finding:
        """``finding`` with this document's file name, line and column."""
        return locate(finding, self.path, self.positions)


def _items(value: object, key: str) -> Iterator[tuple[int, object]]:
    if isinstance(value, dict) and isinstance(value.get(key), list):
        yield from enumerate(value[key])


def _qid_problem(value: object) -> str | None:
    if isinstance(value, str) and not _QID.match(value):
        return (
            f"{value!r} is not a QID but a selector fallback: controls are bound by "
            "stable QID only (letters, digits and _ . : -)"
        )
    return None


def _ref_findings(ref: object, parts: list[str | int], *, selector_ok: bool) -> list[Finding]:
    found: list[Finding] = []
    if isinstance(ref, dict):
        for key in () if selector_ok else SELECTOR_KEYS:
            if key in ref:
                message = (
                    f"a control named by {key} {ref[key]!r}: controls are bound by "
                    "stable QID only; selector fallbacks are rejected"
                )
                found.append(_error(codes.JOURNEY_SELECTOR, [*parts, key], message))
        problem = _qid_problem(ref.get("qid"))
        if problem:
            found.append(_error(codes.JOURNEY_SELECTOR, [*parts, "qid"], problem))
    else:
        problem = _qid_problem(ref)
        if problem:
            found.append(_error(codes.JOURNEY_SELECTOR, parts, problem))
    return found


def selector_findings(document: object, kind: str) -> list[Finding]:
    """Every control named by selector instead of QID in a ``kind`` document."""
    found: list[Finding] = []
    selector_ok = kind == "inventory"  # the crawler may record how it found a control
    for outer, inner in _CONTROL_LISTS[kind]:
        for index, item in _items(document, outer):
            if inner is None:
                found += _ref_findings(item, [outer, index], selector_ok=selector_ok)
                continue
            for position, ref in _items(item, inner):
                found += _ref_findings(ref, [outer, index, inner, position], selector_ok=False)
    if kind == "state_graph":
        for index, state in _items(document, "states"):
            for position, qid in _items(state, "controls"):
                parts: list[str | int] = ["states", index, "controls", position]
                found += _ref_findings(qid, parts, selector_ok=False)
    return found


def _error(code: str, parts: list[str | int], message: str) -> Finding:
    return Finding(code=code, severity="error", pointer=pointer_to(parts), message=message)


def _model_findings(exc: ValidationError, covered: set[str]) -> list[Finding]:
    found: list[Finding] = []
    for error in exc.errors():
        parts = [part for part in error["loc"] if isinstance(part, str | int)]
        kind = error["type"]
        if kind == "missing":
            message = f"missing required key {parts[-1]!r}"
            parts = parts[:-1]
        elif kind == "extra_forbidden":
            message = f"unknown key {parts[-1]!r}"
        else:
            message = str(error["msg"])
        pointer = pointer_to(parts)
        if any(pointer == done or pointer.startswith(done + "/") for done in covered):
            continue
        code = _TYPE_CODES.get(kind, codes.SCHEMA_TYPE if kind.endswith("_type") else None)
        found.append(
            Finding(
                code=code or codes.SCHEMA_VALUE, severity="error", pointer=pointer, message=message
            )
        )
    return found


def load_input(path: Path, model: type[M], kind: str) -> Loaded[M]:
    """Read ``path`` as a ``model`` document (``kind``: requirements, inventory, state_graph)."""
    parsed = read_document(path)
    findings = list(parsed.findings)
    value: M | None = None
    if parsed.parsed and not findings:
        findings = selector_findings(parsed.value, kind)
        try:
            value = model.model_validate(parsed.value, strict=True)
        except ValidationError as exc:
            findings += _model_findings(exc, {f.pointer for f in findings})
    located = [locate(finding, path, parsed.positions) for finding in findings]
    if located:
        value = None
    return Loaded(path, value, located, parsed.source, parsed.positions)
