"""Which file a ``must_exercise`` entry names: resolved once, then compared by inode.

An entry (its first word, for ``npm test``) names a file:

- a path (``sub/contract.sh``): the file at that path from the case's working
  directory, or else from the skill tree's root;
- a bare name (``contract.sh``, ``psql``): a file of that name in the case's
  working directory or the skill tree's root, or else the program the case's
  ``PATH`` (the runner's, when the case sets none) finds.

The load-time check refuses an entry that names no file, and one that names
a file doing nothing (``true``; see :mod:`.substance`). At run time an entry
counts only when an exec of the trial ran *that very file* (same device and
inode, seen from the trial's view), so a stand-in of the same name in
``/tmp``, or a program shadowed through ``PATH``, counts for nothing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from agentic_evals.runner.substance import READ_BYTES, substance
from agentic_evals.runner.trace_match import no_run_option, script_of
from agentic_evals.runner.trace_types import Exec

_TRIVIAL_NAMES = frozenset({"true", "false", ":", "echo", "printf", "exit"})


def resolve_entry(entry: str, cwd: Path, skill_root: Path, env: Mapping[str, str]) -> Path | None:
    """The file ``entry`` names (see the module docstring), or None."""
    words = entry.split()
    if not words:
        return None
    word = words[0]
    for base in (cwd, skill_root):
        candidate = base / word
        if candidate.is_file():
            return Path(os.path.realpath(candidate))
    if "/" in word:
        return None
    # Relative PATH entries are searched from the case's working directory, as it would.
    search = env.get("PATH", os.environ.get("PATH", os.defpath)).split(os.pathsep)
    found = shutil.which(word, path=os.pathsep.join(str(cwd / (e or ".")) for e in search))
    return Path(os.path.realpath(found)) if found else None


def trivial_entry(entry: str, path: Path) -> str | None:
    """Why the file an entry names does nothing, or None when it does something."""
    words = entry.split()
    if words and os.path.basename(words[0]) in _TRIVIAL_NAMES:
        return f"{words[0]!r} does nothing"
    try:
        with path.open("rb") as handle:
            return substance(handle.read(READ_BYTES), path.name)
    except OSError as error:
        return f"it cannot be read ({error.strerror or error})"


def identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """The (device, inode) of the file at ``path``, following symlinks; None if none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def ran_target(execution: Exec, target: tuple[int, int] | None, cwd: Path) -> bool:
    """Whether ``execution`` ran the file whose identity is ``target`` (program or script).

    A relative path is resolved against the trial's working directory, the
    only one known for every process.
    """
    if target is None:
        return False
    program = execution.path or (execution.argv[0] if execution.argv else "")
    candidates = [program]
    script = script_of(program, execution.argv)
    if script is not None:
        if no_run_option(program, execution.argv, script[1] - 1):
            return False  # bash -n, node --check, python3 -V: the script is not run
        candidates.append(script[0])
    return any(identity(cwd / name) == target for name in candidates if name)
