"""Safe resolution of artifact paths and globs inside a boundary.

A path is resolved one component at a time, each step through
``os.path.realpath``: so a ``..`` that climbs out, or a symlink anywhere on
the path whose target lies outside, is caught at the step that leaves the
boundary, before anything there is opened. Globs are expanded by walking
the artifact root without following directory symlinks, so a glob never
lists a directory outside the boundary either.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from agentic_evals.contract.placeholders import path_root
from agentic_evals.oracles.base import OracleContext


class UnsafePathError(ValueError):
    """An artifact path or glob would reach outside the boundary."""


@dataclass(frozen=True)
class Resolved:
    """An artifact path known to stay inside the boundary.

    Attributes:
        key: The path relative to the artifact root, lexically normalised, in
            POSIX form (the key of ``artifact_hashes``).
        real: The fully resolved path, inside the boundary. It may not exist.
    """

    key: str
    real: Path


def _rooted(path: str, ctx: OracleContext) -> tuple[str, str, OracleContext]:
    """The path to resolve, the prefix of its key, and where: its built-in's directory, if any."""
    name, rest = path_root(path)
    if name is None:
        return path, "", ctx
    root = ctx.roots.get(name)
    if root is None:
        raise UnsafePathError(f"{path!r}: ${{{name}}} names no directory in this trial")
    return rest, "${" + name + "}/", replace(ctx, artifact_root=root, boundary=root)


def resolve_artifact(path: str, ctx: OracleContext) -> Resolved:
    """Resolve ``path`` against the artifact root, refusing to leave the boundary.

    A path starting with a built-in placeholder (``${FIXTURE_DIR}/golden.json``)
    is resolved in that placeholder's directory instead, which is then the
    boundary; its key keeps the placeholder.

    Raises:
        UnsafePathError: The path is absolute, a ``..`` leaves the boundary, a
            symlink on the path points outside it, or the artifact root itself
            lies outside it.
    """
    relative, prefix, ctx = _rooted(path, ctx)
    found = _resolve(relative, ctx)
    key = found.key if not prefix else (prefix + found.key).removesuffix("/.")
    return Resolved(key=key, real=found.real)


def _resolve(relative: str, ctx: OracleContext) -> Resolved:
    if "\0" in relative:
        raise UnsafePathError(f"{relative!r} contains a NUL byte")
    if PurePosixPath(relative).is_absolute() or PureWindowsPath(relative).anchor:
        raise UnsafePathError(f"{relative!r} is absolute; artifact paths must be relative")
    boundary = Path(os.path.realpath(ctx.boundary))
    current = Path(os.path.realpath(ctx.artifact_root))
    if not current.is_relative_to(boundary):
        raise UnsafePathError(f"the artifact root {str(ctx.artifact_root)!r} is outside {boundary}")
    for part in PurePosixPath(relative).parts:
        step = current / part
        resolved = Path(os.path.realpath(step))
        if not resolved.is_relative_to(boundary):
            raise UnsafePathError(_escape_reason(relative, part, step))
        current = resolved
    return Resolved(key=posixpath.normpath(relative), real=current)


def _escape_reason(relative: str, part: str, step: Path) -> str:
    if part == "..":
        return f"{relative!r}: '..' leaves the boundary"
    if step.is_symlink():
        return f"{relative!r}: symlink {part!r} points outside the boundary"
    return f"{relative!r} resolves outside the boundary"


def expand_glob(pattern: str, ctx: OracleContext) -> list[Resolved | UnsafePathError]:
    """Return every entry under the artifact root that matches ``pattern``, sorted.

    Pattern segments use ``fnmatch`` syntax and ``**`` matches any number of
    directories. Leading dots are not special (as in ``pathlib``). Directory
    symlinks are matched but not descended into. A match whose resolution
    leaves the boundary (a symlink pointing outside) is returned as an
    ``UnsafePathError`` instead of a path, so the caller can fail that match.

    Raises:
        UnsafePathError: The pattern is absolute, contains ``..``, or the
            artifact root lies outside the boundary.
    """
    written = pattern
    pattern, prefix, ctx = _rooted(pattern, ctx)
    if PurePosixPath(pattern).is_absolute() or PureWindowsPath(pattern).anchor:
        raise UnsafePathError(f"glob {written!r} is absolute; globs must be relative")
    segments = [s for s in pattern.split("/") if s not in ("", ".")]
    if ".." in segments:
        raise UnsafePathError(f"glob {written!r} contains '..'; globs match inside the root only")
    root = _resolve(".", ctx).real
    matches: list[Resolved | UnsafePathError] = []
    for relative in _walk(root, None if "**" in segments else len(segments)):
        if _match(segments, relative.split("/")):
            try:
                found = _resolve(relative, ctx)
                matches.append(Resolved(prefix + found.key, found.real))
            except UnsafePathError as error:
                matches.append(error)
    return matches


def _walk(root: Path, max_depth: int | None) -> list[str]:
    """List entries under ``root`` as sorted POSIX relative paths, without following links."""
    found: list[str] = []
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(directory).relative_to(root).as_posix()
        depth = 0 if base == "." else base.count("/") + 1
        for name in (*dirnames, *filenames):
            found.append(name if base == "." else f"{base}/{name}")
        if max_depth is not None and depth + 1 >= max_depth:
            dirnames.clear()  # deeper entries cannot match a pattern without '**'
    return sorted(found)


def match_glob(pattern: str, relative: str) -> bool:
    """Return whether the POSIX relative path ``relative`` matches ``pattern``.

    Same semantics as ``expand_glob``: ``fnmatch`` per segment, ``**`` spans
    zero or more directories, leading dots are not special.
    """
    segments = [s for s in pattern.split("/") if s not in ("", ".")]
    return _match(segments, [p for p in relative.split("/") if p not in ("", ".")])


def _match(segments: Sequence[str], parts: Sequence[str]) -> bool:
    """Match path parts against pattern segments, ``**`` spanning zero or more parts."""
    if not segments:
        return not parts
    head, rest = segments[0], segments[1:]
    if head == "**":
        return any(_match(rest, parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match(rest, parts[1:])
