"""``agentic-evals audit-skills``: the eval posture of every skill in a tree."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._evals import evals_option
from agentic_evals.cli._exit import refuse, verdict_code
from agentic_evals.cli._sarif import SarifSource, emit_document, format_option


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
@evals_option
@format_option
def audit_skills(
    root: Path, output: Path | None, only: tuple[str, ...], evals: Path | None, fmt: str
) -> None:
    """Audit every skill folder (a subfolder with SKILL.md) of ROOT for an eval posture.

    Postures: eval_provider, agentic_fixture, legacy_eval_fixture,
    delegates_to_eval_skill, task_harness, eval_not_required, prose_only,
    missing. The front matter is checked against the Agent Skills
    specification. Nothing runs: the front matter is parsed and the fixtures
    loaded in-process.
    """
    from agentic_evals.skills.audit import AuditInputError
    from agentic_evals.skills.audit import audit_skills as run_audit
    from agentic_evals.skills.render import render_audit

    try:
        audit = run_audit(root, only, evals)
    except AuditInputError as error:
        refuse("audit-skills", error)
    code = verdict_code(not_ready=audit.summary.not_ready > 0)
    sarif = SarifSource(
        "audit-skills", lambda: [(item, root / (item.skill or "")) for item in audit.findings]
    )
    emit_document(code, render_audit(audit, int(code)), audit, fmt=fmt, output=output, sarif=sarif)
