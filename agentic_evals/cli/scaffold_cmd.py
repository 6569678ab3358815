"""``agentic-evals scaffold-fixture``: a first mechanical fixture for one skill."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import finish, refuse
from agentic_evals.exitcodes import ExitCode


@click.command(
    "scaffold-fixture",
    epilog=(
        "Example: agentic-evals scaffold-fixture skills/my-skill\n\n"
        "Exit codes: 0 written, 2 not a skill folder, or the file exists without --force "
        "(it is left untouched)."
    ),
)
@click.argument("skill_dir", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write here ('-': stdout) instead of SKILL_DIR/fixtures/agentic_eval.json.",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def scaffold_fixture(skill_dir: Path, output: Path | None, force: bool) -> None:
    """Write a first fixture (eval_kind: scaffold) for the skill in SKILL_DIR.

    With sanity.sh or run.sh, its cases run those entrypoints; otherwise
    agentic-evals audits the skill's own files. A scaffold proves wiring,
    not behaviour: strengthen it.
    """
    from agentic_evals.skills.scaffold import ScaffoldError, build_scaffold, write_scaffold

    try:
        scaffold = build_scaffold(skill_dir, output)
        # The default place is inside the skill; an -o names a place the user chose.
        write_scaffold(scaffold, force=force, within=skill_dir if output is None else None)
    except ScaffoldError as error:
        refuse("scaffold-fixture", error)
    if str(scaffold.path) != "-":
        names = ", ".join(case.name for case in scaffold.fixture.cases)
        click.echo(f"wrote {scaffold.path} (eval_kind: scaffold; cases: {names})", err=True)
    finish(ExitCode.OK)
