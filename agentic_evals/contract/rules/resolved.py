"""The path-safety rule on paths as the file system resolves them, at load time.

A ``cwd`` or ``workspace.input`` that stays inside the skill's tree as
written may still leave it through a symlink (``cwd: escape`` where
``escape -> /tmp``): it is ``AE-PATH-ESCAPE`` like an absolute path. Paths
that already break the rule as written (or hold a NUL) are left to that finding; paths in a
workspace copy (and ``${WORKSPACE}``) do not exist yet, and the runner checks
them for each trial (docs/fixtures.md).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path

from jsonpointer import JsonPointer

from agentic_evals import codes
from agentic_evals.contract.layout import FixtureLayout, layout_for, resolved_escape
from agentic_evals.contract.placeholders import FIXTURE_DIR, WORKSPACE, path_root
from agentic_evals.documents.findings import Finding, finding

Parts = list[str | int]


def resolved_findings(
    document: dict[str, object], fixture_dir: Path, skip: Collection[str]
) -> list[Finding]:
    """``AE-PATH-ESCAPE`` for each ``cwd`` or ``workspace.input`` a symlink takes out of the tree.

    ``skip`` are the pointers of paths already refused as written.
    """
    skill_root = document.get("skill_root")
    layout = layout_for(fixture_dir, skill_root if isinstance(skill_root, str) else None)
    workspace = document.get("workspace")
    found: list[Finding] = []
    for path, parts in _paths(document, isinstance(workspace, dict)):
        if JsonPointer.from_parts(parts).path not in skip:
            found += _escape(path, parts, layout)
    return found


def _paths(document: dict[str, object], fixture_workspace: bool) -> Iterator[tuple[object, Parts]]:
    """The tree paths of the document: workspace inputs, and ``cwd`` outside a workspace."""
    workspace = document.get("workspace")
    if isinstance(workspace, dict):
        yield workspace.get("input"), ["workspace", "input"]
    cases = document.get("cases")
    for index, case in enumerate(cases if isinstance(cases, list) else []):
        if not isinstance(case, dict):
            continue
        own = case.get("workspace")
        if isinstance(own, dict):
            yield own.get("input"), ["cases", index, "workspace", "input"]
        elif not fixture_workspace:
            yield case.get("cwd"), ["cases", index, "cwd"]


def _escape(path: object, parts: Parts, layout: FixtureLayout) -> list[Finding]:
    if not isinstance(path, str) or not path or WORKSPACE in path:
        return []
    name, _ = path_root(path)
    boundary = layout.fixture_dir if name == FIXTURE_DIR else layout.skill_tree
    try:
        why = resolved_escape(layout.path(path), boundary)
    except (OSError, ValueError):
        return []  # unreadable on the way: the trial says so when it runs
    if why is None:
        return []
    message = f"{path!r} {why}: paths must stay inside the skill tree"
    return [finding(codes.PATH_ESCAPE, parts, message)]
