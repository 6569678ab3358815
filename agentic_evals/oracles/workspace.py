"""The ``workspace_changes`` oracle: what the trial changed in its workspace copy.

Each ``added``/``changed``/``removed`` glob must match at least one path of
its category (``WORKSPACE_CHANGE_MISSING``); with ``only: true`` every change
must be matched by a glob of its category (``WORKSPACE_CHANGE_UNEXPECTED``,
one problem per path). A directory added or removed together with paths
under it that a glob matches counts as matched too, so ``out/*.json`` covers
the new ``out`` directory that holds them. Globs use ``expand_glob``'s
semantics (``agentic_evals.oracles.paths.match_glob``).
"""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.contract.models import Expected
from agentic_evals.oracles.base import (
    OracleContext,
    OracleResult,
    ProcessOutcomeLike,
    oracle_pointer,
)
from agentic_evals.oracles.paths import match_glob
from agentic_evals.reports.model import Problem

CATEGORIES: tuple[str, ...] = ("added", "changed", "removed")


def check(expected: Expected, outcome: ProcessOutcomeLike, ctx: OracleContext) -> OracleResult:
    """Judge ``expected.workspace_changes`` against the trial's recorded changes."""
    del outcome  # uniform oracle signature; the changes come with the context
    wanted = expected.workspace_changes
    if wanted is None:
        return OracleResult()
    seen = ctx.workspace_changes
    if seen is None:
        message = "the case runs without a workspace, so its changes cannot be judged"
        pointer = oracle_pointer("workspace_changes")
        problem = Problem(code=codes.WORKSPACE_UNAVAILABLE, message=message, oracle=pointer)
        return OracleResult(problems=[problem])
    problems: list[Problem] = []
    for category in CATEGORIES:
        patterns: list[str] = getattr(wanted, category)
        paths: list[str] = getattr(seen, category)
        problems += _missing(category, patterns, paths)
    if wanted.only:
        for category in CATEGORIES:
            problems += _unexpected(category, getattr(wanted, category), getattr(seen, category))
    return OracleResult(problems=problems)


def _missing(category: str, patterns: list[str], paths: list[str]) -> list[Problem]:
    problems = []
    for index, pattern in enumerate(patterns):
        if not any(match_glob(pattern, path) for path in paths):
            message = f"no {category} path matches {pattern!r}"
            if paths:
                message += f" ({category}: {', '.join(paths[:10])})"
            pointer = oracle_pointer("workspace_changes", category, index)
            problems.append(
                Problem(code=codes.WORKSPACE_CHANGE_MISSING, message=message, oracle=pointer)
            )
    return problems


def _unexpected(category: str, patterns: list[str], paths: list[str]) -> list[Problem]:
    matched = {path for path in paths if any(match_glob(p, path) for p in patterns)}
    # A directory is covered by matched paths beneath it (``out`` by ``out/a.json``).
    covered = matched | {path for path in paths if any(m.startswith(f"{path}/") for m in matched)}
    pointer = oracle_pointer("workspace_changes", "only")
    return [
        Problem(
            code=codes.WORKSPACE_CHANGE_UNEXPECTED,
            message=f"unexpected {category} path {path!r}: no {category} pattern matches it",
            oracle=pointer,
        )
        for path in paths
        if path not in covered
    ]
