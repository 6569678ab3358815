"""The load-time gates (SPEC section 2), and the fixture loader that applies them.

A fixture whose cases could prove nothing is rejected before anything runs:
the anti-slop gate (:mod:`.anti_slop`) and, for ``eval_tier: compliance``,
the compliance tier (:mod:`.compliance`). ``runner_selftest`` and
``scaffold`` fixtures are honest exemptions. The gates read every case's
command structurally, and what a case's checks can prove, so they sit above
the contract: :func:`load_fixture` is the contract's loader
(:func:`agentic_evals.contract.load.read_fixture`) with the gates added.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from agentic_evals import codes
from agentic_evals.contract.load import FIXTURE, LoadResult, fixture_dir
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.vocabulary import GATE_EXEMPT_KINDS
from agentic_evals.documents.findings import Finding, finding
from agentic_evals.documents.pipeline import load_document
from agentic_evals.evidence.anti_slop import anti_slop_findings
from agentic_evals.evidence.compliance import compliance_findings
from agentic_evals.evidence.exercise import exercise_findings
from agentic_evals.evidence.facts import evidence_table
from agentic_evals.oracles.regex import pattern_problem

_STREAM_PATTERNS = ("stdout_regex", "stderr_regex")


def gate_findings(fixture: Fixture, directory: Path) -> list[Finding]:
    """The anti-slop and compliance gates over ``fixture`` (in ``directory``).

    Nothing for exempt eval kinds.
    """
    if fixture.eval_kind in GATE_EXEMPT_KINDS:
        return []
    table = evidence_table(fixture, directory)
    analyses = [facts.analysis for facts in table.values()]
    return anti_slop_findings(fixture, table) + compliance_findings(fixture, analyses)


def _gates(fixture: Fixture, path: Path) -> list[Finding]:
    # must_exercise entries are checked for every kind: a self-test's contracts too.
    directory = fixture_dir(path)
    return exercise_findings(fixture, directory) + gate_findings(fixture, directory)


def pattern_findings(document: object) -> list[Finding]:
    """A finding at every pattern of ``document`` the bounded engine refuses.

    Stream patterns and every artifact's ``content_regex``: all are searched by one engine.
    """
    found: list[Finding] = []
    cases = document.get("cases") if isinstance(document, dict) else None
    for index, case in enumerate(cases if isinstance(cases, list) else []):
        expected = case.get("expected") if isinstance(case, dict) else None
        if not isinstance(expected, dict):
            continue
        for key, position, pattern in _patterns(expected):
            problem = pattern_problem(pattern) if isinstance(pattern, str) else None
            if problem is not None:
                pointer = f"/cases/{index}/expected/{key}/{position}"
                name = position if isinstance(position, str) else key
                found.append(finding(codes.SCHEMA_VALUE, pointer, f"{name}: {problem}"))
    return found


def _patterns(expected: dict[str, object]) -> list[tuple[str, int | str, object]]:
    """Each pattern of ``expected``: where it is (key, position) and what it is."""
    found: list[tuple[str, int | str, object]] = []
    for key in _STREAM_PATTERNS:
        patterns = expected.get(key)
        found += [(key, n, p) for n, p in enumerate(patterns if isinstance(patterns, list) else [])]
    artifacts = expected.get("artifacts")
    for position, check in enumerate(artifacts if isinstance(artifacts, list) else []):
        if isinstance(check, dict) and "content_regex" in check:
            found.append((f"artifacts/{position}", "content_regex", check["content_regex"]))
    return found


def _rules(document: object, path: Path) -> list[Finding]:
    return FIXTURE.rules(document, path) + pattern_findings(document)


SEARCHABLE_FIXTURE = dataclasses.replace(FIXTURE, rules=_rules)
"""The contract, with every stream pattern compiled as the oracle will compile it."""
GATED_FIXTURE = dataclasses.replace(SEARCHABLE_FIXTURE, checks=_gates)


def load_fixture(path: Path, *, strict: bool = False, gates: bool = True) -> LoadResult:
    """Load and check the fixture at ``path``: the contract, then the gates.

    Args:
        path: A JSON (``.json``) or YAML (``.yaml``/``.yml``) fixture.
        strict: Unknown keys are errors instead of warnings.
        gates: Run the anti-slop and compliance gates (off for focused runs).

    Returns:
        The fixture when nothing is wrong, and every finding either way.

    Raises:
        DriftError: the models rejected a document the schema accepted.
    """
    return load_document(path, GATED_FIXTURE if gates else SEARCHABLE_FIXTURE, strict=strict)
