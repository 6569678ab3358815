"""Findings: what the loader and the gates say about an input document."""

from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning"]


class Finding(BaseModel):
    """One problem in an input document, located by file, pointer and position."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str
    """Stable code, e.g. ``AE-SCHEMA-TYPE`` (see ``agentic_evals.codes``)."""
    severity: Severity
    """``error`` rejects the document; ``warning`` does not (unless ``--strict``)."""
    pointer: str
    """RFC 6901 pointer of the offending value (``""`` is the whole document)."""
    message: str
    """What is wrong and the rule it breaks."""
    file: str | None = None
    """The document's path as given."""
    line: int | None = None
    """1-based line, where the parser knows it."""
    column: int | None = None
    """1-based column, where the parser knows it."""

    def render(self) -> str:
        """Return the one-line text form: ``file:line:col /pointer CODE message``."""
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        pointer = self.pointer or "/"
        return f"{where} {pointer} {self.code} {self.severity}: {self.message}"


class FindingsView:
    """Mixin for load results: ``errors`` and ``warnings`` over their ``findings``."""

    findings: list[Finding]

    @property
    def errors(self) -> list[Finding]:
        """Findings that reject the document."""
        return [finding for finding in self.findings if finding.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        """Findings that do not reject it."""
        return [finding for finding in self.findings if finding.severity == "warning"]
