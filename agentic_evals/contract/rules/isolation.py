"""Load-time rules of the isolation fields that the schema cannot say.

- ``isolation: copy`` copies the case's workspace: a case that resolves to
  ``copy`` (its own value, or the fixture's) must have a workspace, its own
  or the fixture's.
- ``isolation: none`` runs on the shared tree: a case that resolves to it
  can have no workspace (a workspace is a private copy), and no
  ``expected.workspace_changes`` (nothing records what a trial on the shared
  tree changed).

Like the other semantic rules they read the raw document defensively.
"""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.documents.findings import Finding, finding


def isolation_findings(document: dict[str, object]) -> list[Finding]:
    """Check the ``isolation`` of every case against its workspace and oracles."""
    fixture_mode = document.get("isolation")
    fixture_workspace = isinstance(document.get("workspace"), dict)
    cases = document.get("cases")
    if not isinstance(cases, list):
        return []
    found: list[Finding] = []
    for index, case in enumerate(cases):
        if not isinstance(case, dict):
            continue
        own = case.get("isolation")
        mode = own if isinstance(own, str) else fixture_mode
        where: list[str | int] = ["cases", index, "isolation"] if own is not None else ["isolation"]
        has_workspace = fixture_workspace or isinstance(case.get("workspace"), dict)
        name = case.get("name")
        if mode == "copy" and not has_workspace:
            message = (
                f"case {name!r}: isolation copy copies the case's workspace, and it has none "
                "(add workspace: {input: DIR}, or use auto or overlay)"
            )
            found.append(finding(codes.SCHEMA_CONFLICT, where, message))
        if mode == "none" and has_workspace:
            message = (
                f"case {name!r}: isolation none runs on the shared tree, and the case has a "
                "workspace, which runs in a private copy (use auto or copy, or drop the workspace)"
            )
            found.append(finding(codes.SCHEMA_CONFLICT, where, message))
        expected = case.get("expected")
        if mode == "none" and isinstance(expected, dict) and "workspace_changes" in expected:
            message = (
                f"case {name!r}: expected.workspace_changes needs a private view, and isolation "
                "none runs on the shared tree, where no change is recorded"
            )
            parts: list[str | int] = ["cases", index, "expected", "workspace_changes"]
            found.append(finding(codes.SCHEMA_CONFLICT, parts, message))
    return found
