"""Findings: what a loader, a gate or an audit says about an input, in one form.

Every finding names a stable code (``agentic_evals.codes``), a severity and
the place: the file, the RFC 6901 pointer and, where the parser knows it, line
and column. Audits over a skill or a tree of skills add the skill, seam or
case concerned. One renderer (:meth:`Finding.render`) and one order
(:func:`ordered`) serve them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal, get_args

from jsonpointer import JsonPointer
from pydantic import Field

from agentic_evals.documents.base import OutputModel
from agentic_evals.limits import FINDINGS_PER_CODE

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
"""From most to least severe: the order findings are listed in."""


def _absent(value: object) -> bool:
    return value is None


class Finding(OutputModel):
    """One problem in an input, located by file, pointer and position."""

    code: str
    """Stable code, e.g. ``AE-SCHEMA-TYPE`` (see ``agentic_evals.codes``)."""
    severity: Severity
    """``error`` rejects the input (exit 2, or not ready for an audit); ``warning`` does not
    (unless ``--strict``); ``info`` is a note."""
    pointer: str
    """RFC 6901 pointer of the offending value (``""`` is the whole document)."""
    message: str
    """What is wrong and the rule it breaks."""
    file: str | None = None
    """The document's path as given (audits: relative to the skill folder)."""
    line: int | None = None
    """1-based line, where the parser knows it."""
    column: int | None = None
    """1-based column, where the parser knows it."""
    skill: str | None = Field(default=None, exclude_if=_absent)
    """The skill concerned (skill-tree audits); left out when none."""
    seam_id: str | None = Field(default=None, exclude_if=_absent)
    """The seam concerned (coverage); left out when none."""
    case: str | None = Field(default=None, exclude_if=_absent)
    """The case concerned (coverage); left out when none."""

    def render(self) -> str:
        """Return the one-line text form: ``file:line:col /pointer CODE severity: message``."""
        where = self.file or self.skill or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        pointer = self.pointer or "/"
        return f"{where} {pointer} {self.code} {self.severity}: {self.message}"


def finding(
    code: str,
    where: str | list[str | int],
    message: str,
    severity: Severity = "error",
    **context: str | int | None,
) -> Finding:
    """Build a finding at ``where`` (a pointer, or the parts of one).

    ``context`` fills the optional fields (``file``, ``line``, ``skill``...).
    """
    pointer = where if isinstance(where, str) else str(JsonPointer.from_parts(where).path)
    return Finding.model_validate(
        {"code": code, "severity": severity, "pointer": pointer, "message": message, **context}
    )


class PerCodeCap:
    """Keep at most ``FINDINGS_PER_CODE`` findings of each code; count the rest.

    A document can hold hundreds of thousands of faults: each kept finding
    costs memory and a line of output, so past the cap a code's findings are
    only counted, and :meth:`summaries` says how many were left out.
    """

    def __init__(self, limit: int = FINDINGS_PER_CODE) -> None:
        self.limit = limit
        self._kept: Counter[str] = Counter()
        self._left_out: Counter[str] = Counter()
        self._severity: dict[str, Severity] = {}

    def admit(self, code: str, severity: Severity = "error") -> bool:
        """Whether one more finding of ``code`` is kept (else it is counted)."""
        if self._kept[code] < self.limit:
            self._kept[code] += 1
            return True
        self._left_out[code] += 1
        known = self._severity.get(code, severity)
        self._severity[code] = min(known, severity, key=SEVERITIES.index)
        return False

    def summaries(self, **context: str | int | None) -> list[Finding]:
        """One finding per code over the cap, at the root, as severe as the worst left out."""
        return [
            finding(
                code,
                "",
                f"{count} more {code} finding(s) not listed (the first {self.limit} are)",
                self._severity[code],
                **context,
            )
            for code, count in self._left_out.items()
        ]


def capped(findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` with at most ``FINDINGS_PER_CODE`` of each code, and a count of the rest."""
    cap = PerCodeCap()
    kept = [item for item in findings if cap.admit(item.code, item.severity)]
    file = next((item.file for item in kept if item.file), None)
    return kept + cap.summaries(file=file)


def _place(item: Finding) -> tuple[int, str, int, int, str]:
    return (
        SEVERITIES.index(item.severity),
        item.file or "",
        item.line or 0,
        item.column or 0,
        item.pointer,
    )


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """The one order: errors, then warnings, then infos; within each, by file and position.

    Exact repeats are dropped; findings at the same place keep the order found.
    """
    return sorted(dict.fromkeys(findings), key=_place)


class FindingsView:
    """Mixin for results that carry ``findings``: their errors and warnings."""

    findings: list[Finding]

    @property
    def errors(self) -> list[Finding]:
        """Findings that reject the input."""
        return [item for item in self.findings if item.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        """Findings that do not reject it."""
        return [item for item in self.findings if item.severity == "warning"]
