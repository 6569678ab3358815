"""``agentic-evals scaffold-fixture``: a first mechanical fixture for one skill."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._evals import evals_option
from agentic_evals.cli._exit import finish, refuse
from agentic_evals.exitcodes import ExitCode


@click.command(
    "scaffold-fixture",
    epilog=(
        "Example: agentic-evals scaffold-fixture skills/my-skill\n\n"
        "Exit codes: 0 written, 2 not a skill folder, or the skill already has a fixture "
        "(or the file exists) without --force (it is left untouched)."
    ),
)
@click.argument("skill_dir", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write here ('-': stdout) instead of SKILL_DIR/fixtures/agentic_eval.json "
    "(EVALS/SKILL/agentic_eval.json with an evals tree).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@evals_option
def scaffold_fixture(skill_dir: Path, output: Path | None, force: bool, evals: Path | None) -> None:
    """Write a first fixture (eval_kind: scaffold) for the skill in SKILL_DIR.

    With sanity.sh or run.sh, its cases run those entrypoints, and every
    other program of the skill gets a usage case (its --help, run once now
    in a temporary copy of the skill); otherwise agentic-evals audits the
    skill's own files. A scaffold proves wiring, not behaviour: strengthen it.
    """
    from agentic_evals.contract.layout import evals_tree
    from agentic_evals.skills.scaffold import (
        ScaffoldError,
        build_scaffold,
        existing_fixtures,
        write_scaffold,
    )

    outside = evals_tree(skill_dir.absolute().parent, evals)
    try:
        existing = existing_fixtures(skill_dir, outside) if output is None else []
        if existing and not force:
            listed = ", ".join(existing)
            message = f"{skill_dir}'s fixture {listed} exists; pass --force to scaffold anyway"
            raise ScaffoldError(message)
        scaffold = build_scaffold(skill_dir, output, outside)
        # The default place is inside the skill (or its evals tree); an -o names a place
        # the user chose.
        default_tree = skill_dir if outside is None else outside
        write_scaffold(scaffold, force=force, within=default_tree if output is None else None)
    except ScaffoldError as error:
        refuse("scaffold-fixture", error)
    if str(scaffold.path) != "-":
        names = ", ".join(case.name for case in scaffold.fixture.cases)
        click.echo(f"wrote {scaffold.path} (eval_kind: scaffold; cases: {names})", err=True)
    finish(ExitCode.OK)
