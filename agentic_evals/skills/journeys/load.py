"""Read the inputs of ``plan-journeys`` through the one document pipeline.

Each document (requirements, interaction inventory, state graph) is parsed
strictly, checked against its schema (requirements are closed: every key is
known; the crawler's documents may carry more), checked for selector
fallbacks (a control named by CSS, XPath or text instead of its QID:
``AE-JOURNEY-SELECTOR``, naming the offending value), then validated by its
model and checked across its own values (:mod:`.checks`). Nothing here
raises for bad input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.pipeline import DocumentKind, Loaded, load_document
from agentic_evals.documents.schema_gen import SchemaSpec
from agentic_evals.skills.journeys.checks import graph_errors, requirement_errors
from agentic_evals.skills.journeys.inputs import (
    INVENTORY_DOCUMENT,
    QID_PATTERN,
    REQUIREMENTS_DOCUMENT,
    STATE_GRAPH_DOCUMENT,
    InteractionInventory,
    RequirementsDocument,
    StateGraph,
)

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
                found.append(finding(codes.JOURNEY_SELECTOR, [*parts, key], message))
        problem = _qid_problem(ref.get("qid"))
        if problem:
            found.append(finding(codes.JOURNEY_SELECTOR, [*parts, "qid"], problem))
    else:
        problem = _qid_problem(ref)
        if problem:
            found.append(finding(codes.JOURNEY_SELECTOR, parts, problem))
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


def _kind(
    spec: SchemaSpec, model: type[M], name: str, checks: Callable[[M, Path], list[Finding]] | None
) -> DocumentKind[M]:
    def rules(document: object, _path: Path) -> list[Finding]:
        return selector_findings(document, name)

    return DocumentKind(
        name=name.replace("_", " "),
        model=model,
        schema=spec.build,
        unknown_keys=False,  # requirements' schema rejects them; the crawler's may carry more
        rules=rules,
        checks=checks,
        rules_replace_schema=True,  # a selector says more than "does not match the QID pattern"
    )


REQUIREMENTS = _kind(
    REQUIREMENTS_DOCUMENT,
    RequirementsDocument,
    "requirements",
    lambda document, _path: requirement_errors(document),
)
INVENTORY = _kind(INVENTORY_DOCUMENT, InteractionInventory, "inventory", None)
STATE_GRAPH = _kind(
    STATE_GRAPH_DOCUMENT, StateGraph, "state_graph", lambda graph, _path: graph_errors(graph)
)


def load_input(path: Path, kind: DocumentKind[M]) -> Loaded[M]:
    """Read ``path`` as a document of ``kind`` (:data:`REQUIREMENTS`, :data:`INVENTORY`...)."""
    return load_document(path, kind)
