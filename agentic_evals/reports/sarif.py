"""SARIF 2.1.0 for static findings, for code scanning. Pure.

The renderer works on anything with a code, a severity, a message and a
location (:class:`SarifFinding`): the load findings of ``validate`` as they
are, and the findings of ``audit-skills``, ``coverage`` and ``regressions``
through thin adapters (:mod:`agentic_evals.reports.sarif_adapters`). Rule ids
are the stable codes, with their rule text from :mod:`agentic_evals.codes`;
``partialFingerprints`` hash the code, the file and the message, never the
line, so an alert survives edits above it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Final, Protocol
from urllib.parse import quote

from agentic_evals import __version__
from agentic_evals.codes import rule_text

SARIF_VERSION: Final = "2.1.0"
SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI: Final = "https://agentic-evals.dev"
FINGERPRINT: Final = "agenticEvalsFinding/v1"

_LEVELS: Final = {"error": "error", "warning": "warning", "info": "note", "note": "note"}


class SarifFinding(Protocol):
    """What SARIF needs of a finding (``contract.findings.Finding`` has it all)."""

    @property
    def code(self) -> str:
        """Stable code: the SARIF rule id."""
        ...

    @property
    def severity(self) -> str:
        """``error``, ``warning`` or ``info``."""
        ...

    @property
    def message(self) -> str:
        """What is wrong."""
        ...

    @property
    def file(self) -> str | None:
        """The file concerned, as given (relative paths are kept relative)."""
        ...

    @property
    def line(self) -> int | None:
        """1-based line, where known."""
        ...

    @property
    def column(self) -> int | None:
        """1-based column, where known."""
        ...


def _uri(path: str) -> str:
    """A relative URI reference for ``path`` (relative to the working directory if inside)."""
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(".."):
            path = relative
        else:
            return "file://" + quote(PurePosixPath(path).as_posix())
    return quote(PurePosixPath(path).as_posix())


def _fingerprint(finding: SarifFinding) -> str:
    key = "\0".join((finding.code, finding.file or "", finding.message))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _location(finding: SarifFinding) -> list[dict[str, object]]:
    if not finding.file:
        return []
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(finding.file)}}
    if finding.line is not None:
        region: dict[str, int] = {"startLine": finding.line}
        if finding.column is not None:
            region["startColumn"] = finding.column
        physical["region"] = region
    return [{"physicalLocation": physical}]


def _rule(code: str, level: str) -> dict[str, object]:
    text = rule_text(code) or code
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "defaultConfiguration": {"level": level},
    }


def sarif_log(findings: Sequence[SarifFinding], *, command: str) -> dict[str, object]:
    """The SARIF log (as a JSON value) of ``findings`` found by ``agentic-evals <command>``."""
    rules: dict[str, int] = {}
    rule_list: list[dict[str, object]] = []
    results: list[dict[str, object]] = []
    for finding in findings:
        level = _LEVELS.get(finding.severity, "warning")
        if finding.code not in rules:
            rules[finding.code] = len(rule_list)
            rule_list.append(_rule(finding.code, level))
        result: dict[str, object] = {
            "ruleId": finding.code,
            "ruleIndex": rules[finding.code],
            "level": level,
            "message": {"text": finding.message},
            "partialFingerprints": {FINGERPRINT: _fingerprint(finding)},
        }
        locations = _location(finding)
        if locations:
            result["locations"] = locations
        results.append(result)
    driver = {
        "name": "agentic-evals",
        "version": __version__,
        "informationUri": INFORMATION_URI,
        "rules": rule_list,
    }
    run = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"agentic-evals/{command}/"},
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(findings: Sequence[SarifFinding], *, command: str) -> str:
    """The SARIF log as indented JSON text."""
    return json.dumps(sarif_log(findings, command=command), indent=2, ensure_ascii=False) + "\n"
