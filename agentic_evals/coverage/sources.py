"""Read a skill's fixtures for coverage: every ``fixtures/agentic_eval*`` file, tolerantly.

Which files. Coverage unions every ``fixtures/agentic_eval*.json|yaml|yml``
file of the skill (the same set ``audit-skills`` lists): the primary
``agentic_eval.json`` (or ``.yaml``/``.yml``) first, then the others by name,
so a sibling ``agentic_eval_live.json`` and any other variant count. Cases of
the primary fixture are named plainly; others as ``file#name``.

How. Coverage is static, so a fixture the load-time gates or path rules
reject is still analysed: it is loaded with ``gates=False``; when it still
has errors (say ``AE-PATH-ESCAPE`` or ``AE-SCHEMA-CLAIM``) a warning says so
(``AE-COV-FIXTURE-REJECTED``) and the document is analysed as written. When
the whole document does not fit the models, each case is taken on its own
and a case the models reject is left out (``AE-COV-CASE-UNREADABLE``): it
cannot run, so it guards nothing. A file that cannot be parsed at all is an
error (``AE-COV-FIXTURE-UNREADABLE``).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Final, NamedTuple

from pydantic import ValidationError

from agentic_evals import codes
from agentic_evals.contract.layout import FIXTURES_DIR, is_fixture_name, outside_fixtures
from agentic_evals.contract.load import LoadResult, read_fixture
from agentic_evals.contract.models import Case, Fixture, Workspace
from agentic_evals.coverage.declarations import Declarations, read_declarations
from agentic_evals.coverage.guards import CaseFacts, case_facts
from agentic_evals.documents.findings import Finding, finding

PRIMARY_STEM = "agentic_eval"


class FixtureRead(NamedTuple):
    """What coverage read from one fixture file."""

    file: str
    """Path relative to the skill folder (``fixtures/agentic_eval.json``)."""
    skill: str | None
    """The document's ``skill``, if it names one."""
    readable: bool
    """The file parsed into a fixture object."""
    rejected: bool
    """The loader rejects it (analysed as written all the same)."""
    declarations: Declarations
    """Its seams and claims."""
    cases: list[CaseFacts]
    """Its cases that the models accept."""
    findings: list[Finding]
    """Findings about the file and its cases."""


def is_primary(name: str) -> bool:
    """Whether ``name`` is the primary fixture (``agentic_eval.json|yaml|yml``)."""
    return os.path.splitext(name)[0] == PRIMARY_STEM


def fixture_files(skill_dir: Path, evals: Path | None = None) -> list[Path]:
    """The skill's fixture files, its own and those of the evals tree.

    Its own ``fixtures/agentic_eval*`` come first (the primary first, then by
    name), then the evals tree's whose ``skill_root`` is the skill.
    """
    folder = skill_dir / FIXTURES_DIR
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.is_file()]
    except OSError:
        names = []
    chosen = sorted(name for name in names if is_fixture_name(name))
    own = [folder / name for name in sorted(chosen, key=lambda name: not is_primary(name))]
    return own + outside_fixtures(skill_dir, evals)


def _rejection(loaded: LoadResult, file: str) -> Finding:
    counts = Counter(error.code for error in loaded.errors)
    detail = ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(counts.items()))
    errors = f"{len(loaded.errors)} error{'s' if len(loaded.errors) != 1 else ''}"
    message = (
        f"the fixture does not load ({errors}: {detail}); coverage analyses the document as written"
    )
    return finding(codes.COV_FIXTURE_REJECTED, "", message, "warning", file=file)


class Salvage(NamedTuple):
    """A fixture model of a rejected document, and what had to be left out."""

    fixture: Fixture
    """The model (only the cases the models accept, when the whole does not fit)."""
    indices: list[int]
    """Each kept case's position in the document."""
    findings: list[Finding]
    """One per case left out."""


def _salvage(document: dict[str, object], file: str) -> Salvage:
    """A fixture model of ``document``, keeping each case the models accept on its own."""
    try:
        fixture = Fixture.model_validate(document, strict=True)
        return Salvage(fixture, list(range(len(fixture.cases))), [])
    except ValidationError:
        pass
    cases: dict[str, tuple[Case, int]] = {}
    found: list[Finding] = []
    raw_cases = document.get("cases")
    for index, raw in enumerate(raw_cases if isinstance(raw_cases, list) else []):
        name = raw.get("name") if isinstance(raw, dict) else None
        try:
            case = Case.model_validate(raw, strict=True)
        except ValidationError as error:
            message = f"the case does not fit the fixture models ({error.error_count()} errors)"
            message += "; it is left out: a case that cannot run guards nothing"
            found.append(
                finding(
                    codes.COV_CASE_UNREADABLE,
                    f"/cases/{index}",
                    message,
                    "warning",
                    file=file,
                    case=name if isinstance(name, str) else None,
                )
            )
            continue
        cases.setdefault(case.name, (case, index))
    try:
        workspace = Workspace.model_validate(document.get("workspace"), strict=True)
    except ValidationError:
        workspace = None
    skill, root = document.get("skill"), document.get("skill_root")
    fixture = Fixture.model_construct(
        version=2,
        skill=skill if isinstance(skill, str) else "",
        cases=[case for case, _ in cases.values()],
        workspace=workspace,
        skill_root=root if isinstance(root, str) and root else None,
    )
    return Salvage(fixture, [index for _, index in cases.values()], found)


NO_EVIDENCE_KINDS: Final = frozenset({"runner_selftest"})
"""Fixture kinds whose cases coverage never counts as a guard of the skill."""


def read_for_coverage(path: Path, skill_dir: Path) -> FixtureRead:
    """Read one fixture file of the skill at ``skill_dir`` for coverage."""
    file = Path(os.path.relpath(os.path.abspath(path), os.path.abspath(skill_dir))).as_posix()
    loaded = read_fixture(path)
    document = loaded.document
    if not isinstance(document, dict):
        why = "; ".join(error.message for error in loaded.errors[:3]) or "not a JSON/YAML object"
        message = f"the fixture cannot be read ({why}): its seams and cases are unknown"
        unreadable = finding(codes.COV_FIXTURE_UNREADABLE, "", message, "error", file=file)
        return FixtureRead(file, None, False, False, Declarations([], [], []), [], [unreadable])
    found: list[Finding] = []
    if loaded.model is not None:
        model = Salvage(loaded.model, list(range(len(loaded.model.cases))), [])
    else:
        model = _salvage(document, file)
        found += [_rejection(loaded, file), *model.findings]
    declarations = read_declarations(document, file)
    prefix = "" if is_primary(path.name) else f"{path.name}#"
    fixture_dir = Path(os.path.abspath(path)).parent
    cases = case_facts(model.fixture, fixture_dir, file, prefix, model.indices)
    if document.get("eval_kind") in NO_EVIDENCE_KINDS:
        cases = []  # tests of the runner, or wiring only: no case of them guards the skill
    skill = document.get("skill")
    return FixtureRead(
        file=file,
        skill=skill if isinstance(skill, str) else None,
        readable=True,
        rejected=loaded.model is None,
        declarations=declarations,
        cases=cases,
        findings=found + declarations.findings,
    )
