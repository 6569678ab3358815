"""``agentic-evals apply-scaffolds``: scaffold fixtures across a skill tree."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._evals import evals_option
from agentic_evals.cli._exit import finish, refuse
from agentic_evals.exitcodes import ExitCode


@click.command(
    "apply-scaffolds",
    epilog=(
        "Example: agentic-evals apply-scaffolds skills/ --write --limit 10 -o receipt.json\n\n"
        "Exit codes: 0 done (or a dry run), 2 ROOT is not a folder of skills, or some "
        "fixture could not be written (the receipt's failed list says why)."
    ),
)
@click.argument("root", type=click.Path(path_type=Path))
@click.option("--write", is_flag=True, help="Create the fixtures (default: a dry run).")
@click.option("--force", is_flag=True, help="Replace existing scaffold fixtures too.")
@click.option("--limit", type=click.IntRange(min=0), help="Create at most N fixtures.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the JSON receipt here (default: stdout).",
)
@evals_option
def apply_scaffolds(
    root: Path,
    write: bool,
    force: bool,
    limit: int | None,
    output: Path | None,
    evals: Path | None,
) -> None:
    """Give every eligible skill of ROOT a scaffold fixture (dry run unless --write).

    Eligible: no eval posture (or an eval provider with no fixture). Skills
    with a fixture, a delegation, an exemption or a legacy fixture are skipped
    with the reason; --force replaces scaffolds, never hand-written fixtures.
    With an evals tree, each scaffold goes there (EVALS/SKILL/agentic_eval.json,
    with skill_root), never into the skill.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.reports.json_out import stream_of, write_model_atomic
    from agentic_evals.skills.apply import apply_scaffolds as run_apply
    from agentic_evals.skills.audit import AuditInputError
    from agentic_evals.skills.render import render_receipt

    check_outputs("apply-scaffolds", [output])
    try:
        receipt = run_apply(root, write=write, force=force, limit=limit, evals=evals)
    except AuditInputError as error:
        refuse("apply-scaffolds", error)
    target = output if output is not None else Path("-")
    write_model_atomic(target, receipt)
    if stream_of(target) is None:
        click.echo(render_receipt(receipt), nl=False)
    finish(ExitCode.INVALID if receipt.failed else ExitCode.OK)
