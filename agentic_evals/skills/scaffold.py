"""``scaffold-fixture SKILL_DIR``: a first, honest, mechanical fixture for a skill.

The fixture is ``eval_kind: scaffold`` (an honest exemption from the gates:
it proves wiring, not behaviour), version 2, 2 trials, and its cases run
the skill's own files:

- ``sanity.sh`` present: ``sanity-passes`` runs ``bash ../sanity.sh`` and
  expects exit 0 with no Python traceback on stderr (required).
- ``run.sh`` present: ``help-exits-0`` runs ``bash ../run.sh --help`` and
  expects exit 0 and no traceback (required only when there is no
  ``sanity.sh``), and the negative ``unknown-flag-is-rejected`` runs
  ``bash ../run.sh --agentic-evals-no-such-flag`` and expects exit 2, the
  usage-error convention of argparse, click and typer (never required: the
  scaffold cannot know the skill's conventions; it says so instead of
  guessing a pass).
- every other program of the skill (``scripts/`` first): one usage case,
  ``PROGRAM --help`` with the exit code and usage line it printed when the
  scaffold was written (:mod:`~agentic_evals.skills.usage`).
- none of these: ``static-contract`` is checked by agentic-evals itself, through
  its artifact oracles on the skill's own ``SKILL.md``: it is readable,
  opens with front matter (optionally inside a code fence) that closes and
  has a non-empty ``name`` and ``description``. The command only confirms
  the file is readable by the trial (``test -r``); no other program or
  skill script takes part, and nothing has to be installed on the trial's
  ``PATH``.

No case claims ``real_world`` or a live evidence class: they are
``deterministic`` wiring checks until someone strengthens them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from agentic_evals.contract.layout import FIXTURES_DIR
from agentic_evals.contract.models import Fixture
from agentic_evals.runner.isolation.copy import WorkspaceUnavailableError
from agentic_evals.skills.skilldir import SKILL_MD
from agentic_evals.skills.usage import usage_cases

FIXTURE_NAME = "agentic_eval.json"
DEFAULT_FIXTURE = f"{FIXTURES_DIR}/{FIXTURE_NAME}"
"""Where a scaffold goes, relative to its skill folder (without an evals tree)."""
SCAFFOLD_TRIALS = 2
NO_SUCH_FLAG = "--agentic-evals-no-such-flag"
_TRACEBACK = "Traceback (most recent call last)"


class ScaffoldError(ValueError):
    """The scaffold cannot be written: not a skill folder, or the file exists."""


class Scaffold(NamedTuple):
    """A scaffold fixture and where it goes."""

    fixture: Fixture
    path: Path


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def _case(name: str, kind: str, command: list[str], exit_code: int, **extra: Any) -> dict[str, Any]:
    expected: dict[str, Any] = {"exit_code": exit_code, "stderr_excludes": [_TRACEBACK]}
    return {
        "name": name,
        "type": kind,
        "command": command,
        "expected": expected,
        "evidence_class": "deterministic",
        **extra,
    }


def scaffold_cases(skill_dir: Path, base: Path) -> list[dict[str, Any]]:
    """The cases of a scaffold for ``skill_dir``, with paths relative to ``base``.

    ``base`` is where the fixture's relative paths start: its own folder, or the
    skill's folder when the fixture declares ``skill_root``.

    Raises:
        ScaffoldError: the skill cannot be copied to run its programs' ``--help``.
    """
    cases: list[dict[str, Any]] = []
    has_sanity = (skill_dir / "sanity.sh").is_file()
    if has_sanity:
        command = ["bash", _rel(skill_dir / "sanity.sh", base)]
        cases.append(_case("sanity-passes", "positive", command, 0))
    if (skill_dir / "run.sh").is_file():
        run = _rel(skill_dir / "run.sh", base)
        extra = {"required": False} if has_sanity else {}
        cases.append(_case("help-exits-0", "positive", ["bash", run, "--help"], 0, **extra))
        command = ["bash", run, NO_SUCH_FLAG]
        cases.append(_case("unknown-flag-is-rejected", "negative", command, 2, required=False))
    try:
        cases += usage_cases(skill_dir, base, {case["name"] for case in cases})
    except WorkspaceUnavailableError as error:
        raise ScaffoldError(f"cannot run the programs of {skill_dir}: {error}") from error
    if not cases:
        cases.append(_static_case(skill_dir, base))
    return cases


# Front matter at the top (a code fence may wrap the document), closed again.
_FRONT_MATTER = r"\A(?:`{3,}[\w-]*\r?\n)?---\r?\n(?:.*\r?\n)*?---[ \t]*(?:\r?\n|\z)"


def _static_case(skill_dir: Path, fixture_dir: Path) -> dict[str, Any]:
    skill_md = _rel(skill_dir / SKILL_MD, fixture_dir)
    case = _case("static-contract", "positive", ["test", "-r", skill_md], 0)
    case["expected"]["artifacts"] = [
        {"path": skill_md, "min_bytes": 1, "content_regex": _FRONT_MATTER},
        {"path": skill_md, "content_regex": r"(?m)^name:[ \t]*\S"},
        {"path": skill_md, "content_regex": r"(?m)^description:[ \t]*\S"},
    ]
    return case


def scaffold_place(skill_dir: Path, evals: Path | None) -> Path:
    """Where the scaffold of ``skill_dir`` goes: ``<evals>/<skill>/`` or its ``fixtures/``."""
    if evals is None:
        return skill_dir / DEFAULT_FIXTURE
    return evals / Path(os.path.abspath(skill_dir)).name / FIXTURE_NAME


def existing_fixtures(skill_dir: Path, evals: Path | None) -> list[str]:
    """The agentic fixtures ``skill_dir`` already has, in ``fixtures/`` or the evals tree."""
    from agentic_evals.skills.skilldir import scan_skill

    return list(scan_skill(skill_dir, evals).fixtures)


def build_scaffold(
    skill_dir: Path, output: Path | None = None, evals: Path | None = None
) -> Scaffold:
    """Build the scaffold fixture of ``skill_dir`` (written nowhere yet).

    Args:
        skill_dir: A skill folder (it holds a ``SKILL.md``).
        output: Where the fixture will go; default :func:`scaffold_place`.
        evals: The evals tree: without ``output`` the fixture goes to
            ``<evals>/<skill>/agentic_eval.json`` and declares ``skill_root``, so that
            nothing is written inside the skill.

    Raises:
        ScaffoldError: ``skill_dir`` is not a skill folder, or cannot be copied to
            run its programs.
    """
    if not (skill_dir / SKILL_MD).is_file():
        raise ScaffoldError(f"{skill_dir} is not a skill folder (no {SKILL_MD})")
    skill = Path(os.path.abspath(skill_dir))
    outside = output is None and evals is not None
    path = output if output is not None else scaffold_place(skill_dir, evals)
    # On stdout ("-"), paths are written for the default place of the fixture.
    placed = scaffold_place(skill_dir, evals) if str(path) == "-" else path
    fixture_dir = Path(os.path.abspath(placed)).parent
    cases = scaffold_cases(skill, skill if outside else fixture_dir)
    entrypoint = cases[0]["name"] != "static-contract"
    exercised = (
        "the skill's own entrypoints and programs (sanity.sh, run.sh, --help of each "
        "program), run as they are"
        if entrypoint
        else "agentic-evals' static audit of the skill's own files"
    )
    document: dict[str, Any] = {
        "version": 2,
        "skill": skill.name,
        "eval_kind": "scaffold",
        "trials": SCAFFOLD_TRIALS,
        "live": False,
        "mocked": False,
        "proof_scope": "scaffold: wiring only, written mechanically by agentic-evals",
        "claims": {
            "proves": "the skill is wired into agentic-evals and "
            + ("its entrypoints exit as expected" if entrypoint else "its own files are sound"),
            "does_not_prove": "any behaviour of the skill: semantic correctness, live "
            "services, or readiness",
        },
        "what_was_exercised": exercised,
        "what_remains_unverified": "everything the skill is for: add real-world and "
        "adversarial cases with oracles that read results back, then drop eval_kind: scaffold",
        "cases": cases,
    }
    if outside:
        document["skill_root"] = _rel(skill, fixture_dir)
    return Scaffold(Fixture.model_validate(document, strict=True), path)


def scaffold_text(fixture: Fixture) -> str:
    """The fixture as indented JSON, ``cases`` last, with a final newline."""
    from agentic_evals.reports.json_out import dump_value

    document = fixture.model_dump(mode="json", by_alias=True, exclude_unset=True)
    document["cases"] = document.pop("cases")
    return dump_value(document)


def write_scaffold(scaffold: Scaffold, *, force: bool = False, within: Path | None = None) -> None:
    """Write ``scaffold`` atomically; an existing file is replaced only with ``force``.

    ``within`` is the tree the file must stay in, symlinks followed: a
    ``fixtures/`` folder (or a fixture file) that is a symlink to outside it
    is not written through.

    Raises:
        ScaffoldError: the file exists and ``force`` is off, or it resolves
            outside ``within`` (it is left untouched, nothing is written).
    """
    from agentic_evals.contract.layout import resolved_escape
    from agentic_evals.reports.json_out import write_text_atomic

    if str(scaffold.path) == "-":
        write_text_atomic(scaffold.path, scaffold_text(scaffold.fixture))
        return
    escape = None if within is None else resolved_escape(scaffold.path, within)
    if escape is not None:
        raise ScaffoldError(
            f"{scaffold.path} {escape}: nothing is written through a symlink out of the tree"
        )
    if scaffold.path.exists() and not force:
        raise ScaffoldError(f"{scaffold.path} exists; pass --force to overwrite it")
    write_text_atomic(scaffold.path, scaffold_text(scaffold.fixture))
