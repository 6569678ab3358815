"""Coverage findings: one constructor and one order. Pure."""

from __future__ import annotations

from collections.abc import Iterable

from agentic_evals.coverage.models import CoverageFinding, FindingSeverity

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def finding(
    code: str,
    severity: FindingSeverity,
    message: str,
    *,
    file: str | None = None,
    pointer: str = "",
    seam_id: str | None = None,
    case: str | None = None,
) -> CoverageFinding:
    """Build one finding (``code`` from ``agentic_evals.codes``)."""
    return CoverageFinding(
        code=code,
        severity=severity,
        message=message,
        file=file,
        pointer=pointer,
        seam_id=seam_id,
        case=case,
    )


def ordered(findings: Iterable[CoverageFinding]) -> list[CoverageFinding]:
    """Errors first, then warnings, then infos; otherwise in the order found, without repeats."""
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda item: _SEVERITY_ORDER[item.severity])


def render_finding(item: CoverageFinding) -> str:
    """The one-line text form: ``file /pointer CODE severity: message``."""
    where = item.file or "<skill>"
    pointer = item.pointer or "/"
    return f"{where} {pointer} {item.code} {item.severity}: {item.message}"
