"""Where each case of a report sits in its fixture: 1-based lines, for annotations.

A report does not store positions; they are read back from the fixture file
it names, and only when that file still has the bytes the report was made
from (its sha256 is ``fixture_sha256``), so a line never points at the wrong
case. JSON fixtures pay for locating only here, when an annotation needs it.
A case expanded from another (a parametrized case's ``name[value]``) is
found at the line of the case it was written as.
"""

from __future__ import annotations

from pathlib import Path

from agentic_evals.contract.expansion import expand_fixture
from agentic_evals.documents.positions import position_of
from agentic_evals.documents.yaml_io import read_document
from agentic_evals.judge.provenance import sha256_bytes


def case_lines(fixture: Path, fixture_sha256: str) -> dict[str, int]:
    """Case name to the line its case object starts at; empty when the file changed or is gone."""
    parsed = read_document(fixture)
    if not parsed.parsed or sha256_bytes(parsed.source) != fixture_sha256:
        return {}
    expansion = expand_fixture(parsed.value)
    document = expansion.document
    cases = document.get("cases") if isinstance(document, dict) else None
    if not isinstance(cases, list):
        return {}
    found: dict[str, int] = {}
    for index, case in enumerate(cases):
        if isinstance(case, dict) and isinstance(case.get("name"), str):
            at = position_of(expansion.source_pointer(f"/cases/{index}"), parsed.positions)
            if at is not None:
                found.setdefault(case["name"], at[0])
    return found
