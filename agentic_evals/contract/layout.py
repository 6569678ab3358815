"""Where a fixture's skill is, and where a skill keeps its fixtures.

A fixture's *layout* names three directories: the fixture's own folder, the
skill's tree (the files that are the skill: its entrypoints, its stub
locations, the boundary nothing outside of which is read) and the *base*
that the fixture's relative paths (``cwd``, ``workspace.input``, artifact
paths) start from. Without ``skill_root`` the skill's tree is the fixture's
folder, or its parent when the folder is named ``fixtures``, and the base is
the fixture's folder. With ``skill_root`` (relative to the fixture's folder)
both are that directory: the fixture may live outside the skill it
evaluates (``evals/<skill>/agentic_eval.yaml``), and then its own folder is
one more stub location, as ``fixtures/`` is inside a skill.

A skill's fixtures are its ``fixtures/agentic_eval*`` files and, in an evals
tree (``evals/`` beside the skills' folder, one folder per skill name), the
``agentic_eval*`` files of ``<evals>/<skill>/`` whose ``skill_root`` is that
skill.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Final, NamedTuple

from agentic_evals.contract.placeholders import FIXTURE_DIR, SKILL_ROOT, WORKSPACE, resolve
from agentic_evals.documents.yaml_io import SUFFIXES, read_document

FIXTURES_DIR: Final = "fixtures"
"""The folder of a skill that holds its fixtures (and its regression registry)."""
FIXTURE_PREFIX: Final = "agentic_eval"
EVALS_DIR: Final = "evals"
"""The evals tree's default name, beside the folder of skills."""


_STUB_PART = re.compile(r"(?:test[-_]?)?fixtures?", re.IGNORECASE)


def stub_part(name: str) -> bool:
    """Whether a directory named ``name`` is a stub location.

    ``fixtures`` or a look-alike: ``fixture``, ``Fixtures``, ``test-fixtures``, ``test_fixture``.
    """
    return _STUB_PART.fullmatch(name) is not None


def stub_location(relative: str) -> bool:
    """Whether a file at ``relative`` (a path below the skill tree) lies in a stub location."""
    return any(stub_part(part) for part in PurePosixPath(relative).parts[:-1])


def is_fixture_name(name: str) -> bool:
    """Whether ``name`` is an agentic fixture file name (``agentic_eval*.json|yaml|yml``)."""
    return name.startswith(FIXTURE_PREFIX) and name.endswith(SUFFIXES)


class FixtureLayout(NamedTuple):
    """The directories a fixture's paths and commands are read against (all absolute)."""

    fixture_dir: Path
    """The fixture file's folder."""
    skill_tree: Path
    """The skill's tree: entrypoints, stub locations, the read boundary."""
    base: Path
    """Where the fixture's relative paths start (the default cwd and artifact root)."""

    @property
    def outside(self) -> bool:
        """The fixture lives outside the skill's tree (its folder is then a stub location)."""
        real = Path(os.path.realpath(self.fixture_dir))
        tree = Path(os.path.realpath(self.skill_tree))
        return not (real == tree or tree in real.parents)

    def path(self, text: str, workspace: Path | None = None) -> Path:
        """The absolute path ``text`` (placeholders allowed) names, relative ones from ``base``."""
        return Path(os.path.normpath(self.base / resolve(text, self.bindings(workspace))))

    def bindings(self, workspace: Path | None = None) -> Mapping[str, str]:
        """The built-in placeholders' values; ``${WORKSPACE}`` only with a workspace."""
        values = {SKILL_ROOT: str(self.skill_tree), FIXTURE_DIR: str(self.fixture_dir)}
        if workspace is not None:
            values[WORKSPACE] = str(workspace)
        return values


def resolved_escape(path: Path, boundary: Path) -> str | None:
    """Why ``path``, with its symlinks resolved, lies outside ``boundary``; None when inside.

    The path-safety rule on the paths as the file system has them, not only as
    written: a ``cwd`` or ``workspace.input`` that reaches outside through a
    symlink is refused like one that is absolute (``AE-PATH-ESCAPE``). A path
    that does not exist (yet) resolves as far as it exists.
    """
    if path == boundary:
        return None  # resolved alike: the usual cwd of a trial, decided without a walk
    real = Path(os.path.realpath(path))
    inside = Path(os.path.realpath(boundary))
    if real.is_relative_to(inside):
        return None
    return f"resolves through a symlink to {str(real)!r}, outside {str(inside)!r}"


def layout_for(fixture_dir: Path, skill_root: str | None) -> FixtureLayout:
    """The layout of a fixture living in ``fixture_dir`` that declares ``skill_root`` (or not)."""
    folder = Path(os.path.normpath(os.path.abspath(fixture_dir)))
    if skill_root is not None:
        tree = Path(os.path.normpath(folder / skill_root))
        return FixtureLayout(folder, tree, tree)
    tree = folder.parent if folder.name == FIXTURES_DIR else folder
    return FixtureLayout(folder, tree, folder)


def fixture_layout(path: Path, skill_root: str | None) -> FixtureLayout:
    """The layout of the fixture file at ``path``."""
    return layout_for(Path(os.path.abspath(path)).parent, skill_root)


def evals_tree(skills_root: Path, given: Path | None = None) -> Path | None:
    """The evals tree of the skills under ``skills_root``.

    ``given`` (``--evals DIR``) when there is one, else ``evals/`` beside the
    skills' folder when that folder exists; None otherwise.
    """
    if given is not None:
        return given
    default = Path(os.path.abspath(skills_root)).parent / EVALS_DIR
    return default if default.is_dir() else None


def outside_fixtures(skill_dir: Path, evals: Path | None) -> list[Path]:
    """The fixtures of ``<evals>/<skill>/`` whose ``skill_root`` is ``skill_dir``, by name."""
    if evals is None:
        return []
    folder = evals / Path(os.path.abspath(skill_dir)).name
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        return []
    target = os.path.realpath(skill_dir)
    found: list[Path] = []
    for name in names:
        if not is_fixture_name(name):
            continue
        document = read_document(folder / name).value
        root = document.get("skill_root") if isinstance(document, dict) else None
        if isinstance(root, str) and root:
            tree = layout_for(folder, root).skill_tree
            if os.path.realpath(tree) == target:
                found.append(folder / name)
    return found
