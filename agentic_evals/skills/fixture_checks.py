"""What a skill's own fixtures say: do they load, pass the gates, or only scaffold?

Agentic fixtures go through :func:`~agentic_evals.contract.load.load_fixture`
with the gates on, exactly as ``validate`` would: EVAL005 when a fixture does
not load, EVAL006 when only the gates reject it, EVAL007 when every fixture
of the skill is an ``eval_kind: scaffold`` or ``runner_selftest`` fixture (neither is evidence
for the skill). A ``fixtures/eval.json``
is a legacy fixture when it is a JSON object with ``"version": 1``; any
other ``eval.json`` is EVAL005.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.documents.bounded import BoundError, loads_json, read_regular
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.limits import MAX_DOCUMENT_BYTES
from agentic_evals.skills.skilldir import SkillFiles

_GATE_PREFIXES = ("AE-SLOP-", "AE-COMP-")
_SHOWN = 3
_NO_EVIDENCE = ("scaffold", "runner_selftest")


class FixtureCheck(NamedTuple):
    """Issues of a skill's agentic fixtures."""

    issues: list[Finding]
    all_scaffold: bool
    """Every agentic fixture declares ``eval_kind: scaffold`` or ``runner_selftest``."""


def _describe(errors: list[Finding], rel: str) -> str:
    shown = [f"{f.code} at {f.pointer or '/'}: {f.message}" for f in errors[:_SHOWN]]
    more = len(errors) - _SHOWN
    tail = f"; and {more} more (agentic-evals validate {rel})" if more > 0 else ""
    return "; ".join(shown) + tail


def check_fixtures(files: SkillFiles) -> FixtureCheck:
    """Load every agentic fixture of the skill, gates on; nothing runs."""
    from agentic_evals.evidence.gates import load_fixture

    issues: list[Finding] = []
    scaffolds = 0
    for rel in files.fixtures:
        result = load_fixture(files.path / rel, gates=True)
        document = result.document
        if isinstance(document, dict) and document.get("eval_kind") in _NO_EVIDENCE:
            scaffolds += 1
        errors = result.errors
        if result.ok or not errors:
            continue
        gated = all(error.code.startswith(_GATE_PREFIXES) for error in errors)
        if gated:
            rule, what = codes.EVAL_FIXTURE_GATED, "is rejected by the load-time gates"
        else:
            rule, what = codes.EVAL_FIXTURE_INVALID, "does not load"
        message = f"{rel} {what}: {_describe(errors, rel)}"
        issues.append(finding(rule, "", message, "error", file=rel, line=errors[0].line))
    return FixtureCheck(issues, bool(files.fixtures) and scaffolds == len(files.fixtures))


def check_legacy(files: SkillFiles) -> tuple[bool, list[Finding]]:
    """Whether ``fixtures/eval.json`` is a version 1 legacy fixture, and its issues."""
    if files.legacy is None:
        return False, []
    rel = files.legacy
    try:
        data = read_regular(files.path / rel, MAX_DOCUMENT_BYTES)
        document = loads_json(data.decode("utf-8-sig"), str(rel))
    except (OSError, ValueError) as exc:
        reason = (
            "unreadable"
            if isinstance(exc, OSError)
            else f"refused ({exc.rule})"
            if isinstance(exc, BoundError)
            else f"not JSON ({exc})"
        )
        return False, [
            finding(codes.EVAL_FIXTURE_INVALID, "", f"{rel} is {reason}", "error", file=rel)
        ]
    version = document.get("version") if isinstance(document, dict) else None
    if type(version) is int and version == 1:
        message = (
            f"{rel} is a version 1 fixture, which agentic-evals does not run: "
            "migrate its cases to fixtures/agentic_eval.json (version 2)"
        )
        return True, [finding(codes.EVAL_LEGACY_FIXTURE, "", message, "warning", file=rel)]
    message = (
        f"{rel} is not a version 1 legacy fixture (version {version!r}); a version 2 "
        "fixture belongs in fixtures/agentic_eval.json"
    )
    return False, [finding(codes.EVAL_FIXTURE_INVALID, "", message, "error", file=rel)]


def _declared(path: Path, key: str) -> str | None:
    from agentic_evals.documents.yaml_io import read_document

    value = read_document(path).value
    if isinstance(value, dict) and isinstance(value.get(key), str):
        return str(value[key])
    return None


def declared_skill(path: Path) -> str | None:
    """The ``skill`` a fixture file declares, read without any check; ``None`` if unreadable."""
    return _declared(path, "skill")


def declared_kind(path: Path) -> str | None:
    """The ``eval_kind`` a fixture file declares, read without any check."""
    return _declared(path, "eval_kind")
