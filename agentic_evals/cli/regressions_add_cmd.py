"""``agentic-evals regressions add``: record a regression whose proof verifies, or nothing."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import echo_findings, emit, finish, refuse
from agentic_evals.cli._timeout import SECONDS
from agentic_evals.exitcodes import ExitCode

OUTPUT = click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the JSON document here ('-': stdout).",
)
TIMEOUT = click.option(
    "--timeout-seconds",
    type=SECONDS,
    default=120.0,
    show_default=True,
    help="Per-trial timeout of a retained case that sets none (and of a proof_command).",
)


@click.command(
    "add",
    epilog=(
        "Example: agentic-evals regressions add path/to/skill --id total-off-by-one "
        "--case adds-two-numbers --mutation tally.sh '$1 + $2' '$1 + $2 + 1' "
        "--failure-code STDOUT_MISSING\n\n"
        "Exit codes: 0 the proof verified and the record was written, 1 it did not verify "
        "(nothing written), 2 invalid input, 129/130/143 interrupted."
    ),
)
@click.argument("skill_dir", type=click.Path(path_type=Path))
@click.option("--id", "regression_id", required=True, help="The new regression_id.")
@click.option("--case", "retained_case", required=True, help="The guard: the retained case.")
@click.option(
    "--patch",
    type=click.Path(path_type=Path),
    help="A unified diff inside SKILL_DIR that puts the bug back (paths relative to SKILL_DIR).",
)
@click.option("--git-ref", help="A commit (any ref; the full commit id is kept) with the bug.")
@click.option(
    "--mutation",
    nargs=3,
    metavar="PATH FIND REPLACE",
    help="A literal edit of one file (PATH relative to SKILL_DIR) that puts the bug back.",
)
@click.option("--count", type=click.IntRange(min=1), help="How many times FIND occurs.")
@click.option(
    "--failure-code",
    help="Problem code or oracle pointer the guard fails with (default: the first every "
    "trial shows on the broken tree).",
)
@click.option(
    "--fixture",
    "retained_fixture",
    default="agentic_eval.json",
    show_default=True,
    help="The retained fixture, relative to SKILL_DIR/fixtures.",
)
@click.option("--claim", "claim_ids", multiple=True, help="A claim the regression threatens.")
@click.option("--seam", "seam_ids", multiple=True, help="A seam the regression entered through.")
@click.option("--incident", help="The incident's id or reference.")
@OUTPUT
@TIMEOUT
def add(
    skill_dir: Path,
    regression_id: str,
    retained_case: str,
    patch: Path | None,
    git_ref: str | None,
    mutation: tuple[str, str, str] | None,
    count: int | None,
    failure_code: str | None,
    retained_fixture: str,
    claim_ids: tuple[str, ...],
    seam_ids: tuple[str, ...],
    incident: str | None,
    output: Path | None,
    timeout_seconds: float,
) -> None:
    """Add a regression to SKILL_DIR/fixtures/regressions.json, proven before it is written.

    Give exactly one of --patch, --git-ref, --mutation. The proof runs once, as
    `regressions verify` runs it: the record is written (atomically, with its
    last_proven and verification record, the file's mode kept) only when the
    guard fails on the broken tree for the record's reason and passes now.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.regressions.add import AddRequest, add_regression
    from agentic_evals.regressions.render import render_verify
    from agentic_evals.regressions.skill import RegressionsInputError
    from agentic_evals.regressions.verify import VerifyOptions
    from agentic_evals.regressions.write import RegistryChangedError

    misuse = _misuse(patch, git_ref, mutation, count)
    if misuse is not None:
        refuse("regressions add", misuse)
    check_outputs("regressions add", [output])
    request = AddRequest(
        regression_id=regression_id,
        retained_case=retained_case,
        patch=patch,
        git_ref=git_ref,
        mutation=mutation,
        count=count,
        failure_code=failure_code,
        retained_fixture=retained_fixture,
        claim_ids=claim_ids,
        seam_ids=seam_ids,
        incident=incident,
        options=VerifyOptions(timeout_seconds=timeout_seconds),
    )
    try:
        outcome = add_regression(skill_dir, request)
    except (RegressionsInputError, RegistryChangedError) as error:
        refuse("regressions add", error)
    echo_findings(outcome.findings)
    if outcome.document is None:
        click.echo("the new record is invalid; nothing was run or written", err=True)
        finish(ExitCode.INVALID)
    document = outcome.document
    signum = outcome.interrupted_by
    written = ExitCode.OK if document.written else ExitCode.NOT_READY
    code = written if signum is None else ExitCode(128 + signum)
    emit(code, render_verify(document, int(code)), output=output, document=document)


def _misuse(
    patch: Path | None, git_ref: str | None, mutation: object, count: int | None
) -> str | None:
    if sum(proof is not None for proof in (patch, git_ref, mutation)) != 1:
        return "give exactly one of --patch, --git-ref, --mutation"
    if count is not None and mutation is None:
        return "--count goes with --mutation"
    return None
