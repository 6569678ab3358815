"""``agentic-evals audit-skills``: the eval posture of every skill in a tree."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish
from agentic_evals.cli._sarif import format_option, summary_to_stderr, write_sarif
from agentic_evals.exitcodes import ExitCode


@click.command(
    "audit-skills",
    epilog=(
        "Example: agentic-evals audit-skills skills/ -o audit.json\n\n"
        "Exit codes: 0 no error finding, 1 some skill is not ready (an error finding, "
        "e.g. EVAL001), 2 ROOT is not a folder of skills or --only names no skill."
    ),
)
@click.argument("root", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write the JSON audit ('-': stdout)."
)
@click.option(
    "--only", "only", multiple=True, metavar="SKILL", help="Audit only this skill (repeatable)."
)
@format_option
def audit_skills(root: Path, output: Path | None, only: tuple[str, ...], fmt: str) -> None:
    """Audit every skill folder (a subfolder with SKILL.md) of ROOT for an eval posture.

    Postures: eval_provider, agentic_fixture, legacy_eval_fixture,
    delegates_to_eval_skill, eval_not_required, missing. Nothing runs: the
    front matter is parsed and the fixtures loaded in-process.
    """
    from agentic_evals.fleet.audit import AuditInputError
    from agentic_evals.fleet.audit import audit_skills as run_audit
    from agentic_evals.fleet.render import render_audit
    from agentic_evals.reports.json_out import write_model_atomic

    try:
        audit = run_audit(root, only)
    except AuditInputError as error:
        click.echo(f"agentic-evals audit-skills: {error}", err=True)
        finish(ExitCode.INVALID)
    code = ExitCode.OK if audit.summary.not_ready == 0 else ExitCode.NOT_READY
    if fmt == "sarif":
        from agentic_evals.reports.sarif_adapters import from_skills_audit

        write_sarif(from_skills_audit(audit, root), "audit-skills", output)
    elif output is not None:
        write_model_atomic(output, audit)
    # With a document on stdout, the summary moves to stderr.
    click.echo(render_audit(audit, int(code)), nl=False, err=summary_to_stderr(fmt, output))
    finish(code)
