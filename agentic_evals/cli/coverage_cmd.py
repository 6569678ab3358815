"""``agentic-evals coverage show|audit``: static seam coverage."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._evals import evals_option
from agentic_evals.cli._exit import refuse, verdict_code
from agentic_evals.cli._sarif import SarifSource, emit_document, format_option

_OUTPUT_HELP = "Write the JSON document here ('-': stdout)."
_REPORT_ONLY_HELP = "Exit 0 whatever the verdict."


@click.group(
    "coverage",
    epilog="Example: agentic-evals coverage show skills/ask -o coverage.json",
)
def coverage() -> None:
    """Which seams have guards that can fail, in which evidence classes. Nothing runs.

    A case covers a seam only when it lists it, is required and carries an
    oracle that can fail (a bare exit_code 0 case is weak); classes are the
    effective ones after live qualification.
    """


@coverage.command(
    "show",
    epilog=(
        "Example: agentic-evals coverage show . -o coverage.json\n\n"
        "Exit codes: 0 READY or NO_CRITICAL_SEAMS_DECLARED (or any verdict with "
        "--report-only), 1 NOT_READY, 2 SKILL_DIR missing, without a fixture, or a fixture "
        "that cannot be parsed, 3 internal error."
    ),
)
@click.argument("skill_dir", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help=_OUTPUT_HELP)
@click.option("--report-only", is_flag=True, help=_REPORT_ONLY_HELP)
@evals_option
@format_option
def show(
    skill_dir: Path, output: Path | None, report_only: bool, evals: Path | None, fmt: str
) -> None:
    """Seam coverage of SKILL_DIR: every fixtures/agentic_eval* file, unioned."""
    from agentic_evals import codes
    from agentic_evals.coverage.findings import report_findings
    from agentic_evals.coverage.render import render_report
    from agentic_evals.coverage.show import CoverageInputError, show_coverage

    try:
        report = show_coverage(skill_dir, evals)
    except CoverageInputError as error:
        refuse("coverage show", error)
    code = verdict_code(
        invalid=any(item.code == codes.COV_FIXTURE_UNREADABLE for item in report.findings),
        not_ready=report.summary.verdict == "NOT_READY",
        report_only=report_only,
    )
    sarif = SarifSource("coverage-show", lambda: report_findings(report))
    emit_document(
        code, render_report(report, int(code)), report, fmt=fmt, output=output, sarif=sarif
    )


@coverage.command(
    "audit",
    epilog=(
        "Example: agentic-evals coverage audit skills/ -o coverage-audit.json\n\n"
        "Exit codes: 0 no skill NOT_READY (or any with --report-only), 1 some skill "
        "NOT_READY, 2 ROOT missing or no subfolder with fixtures, 3 internal error."
    ),
)
@click.argument("root", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help=_OUTPUT_HELP)
@click.option("--report-only", is_flag=True, help=_REPORT_ONLY_HELP)
@evals_option
@format_option
def audit(root: Path, output: Path | None, report_only: bool, evals: Path | None, fmt: str) -> None:
    """Seam coverage of every immediate subfolder of ROOT that has fixtures."""
    from agentic_evals.coverage.audit import audit_coverage
    from agentic_evals.coverage.findings import audit_findings
    from agentic_evals.coverage.render import render_audit
    from agentic_evals.coverage.show import CoverageInputError

    try:
        result = audit_coverage(root, evals)
    except CoverageInputError as error:
        refuse("coverage audit", error)
    code = verdict_code(not_ready=bool(result.summary.not_ready), report_only=report_only)
    sarif = SarifSource("coverage-audit", lambda: audit_findings(result))
    emit_document(
        code, render_audit(result, int(code)), result, fmt=fmt, output=output, sarif=sarif
    )
