"""``agentic-evals regressions show|audit|verify|add``: guards that prove they catch their bug."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._evals import evals_option
from agentic_evals.cli._exit import echo_findings, emit, finish, refuse, verdict_code
from agentic_evals.cli._sarif import SarifSource, emit_document, format_option
from agentic_evals.cli.regressions_add_cmd import OUTPUT, TIMEOUT, add
from agentic_evals.exitcodes import ExitCode

_PATH = click.Path(path_type=Path)
_REPORT_ONLY = click.option(
    "--report-only", is_flag=True, help="Exit 0 whatever was found (2 still means invalid)."
)
_FRESHNESS = click.option(
    "--freshness-days",
    type=click.IntRange(min=0),
    default=30,
    show_default=True,
    help="A live-class guard proven longer ago than this is a stale live proof.",
)


@click.group(
    "regressions",
    epilog="Example: agentic-evals regressions show path/to/skill -o regressions.json",
)
def regressions() -> None:
    """Audit and verify a skill's regression registry (fixtures/regressions.json).

    Each record ties an incident to a retained guard case and a fail-before-fix
    proof. Exit codes: 0 nothing to fix, 1 something to fix, 2 invalid registry,
    missing folder or bad usage, 3 internal error.
    """


@regressions.command(
    "show",
    epilog=(
        "Example: agentic-evals regressions show path/to/skill --freshness-days 14\n\n"
        "Exit codes: 0 every ACTIVE regression is protected and proven and no open incident is "
        "unmapped (or --report-only), 1 otherwise, 2 no folder, no registry or an invalid one."
    ),
)
@click.argument("skill_dir", type=_PATH)
@OUTPUT
@_FRESHNESS
@_REPORT_ONLY
@evals_option
@format_option
def show(
    skill_dir: Path,
    output: Path | None,
    freshness_days: int,
    report_only: bool,
    evals: Path | None,
    fmt: str,
) -> None:
    """Audit SKILL_DIR/fixtures/regressions.json (or the evals tree's); nothing runs.

    Per regression: protected (its retained case is still in a fixture that
    loads), established fail-before-fix (a proof command and last_proven),
    stale live proof, retired; and open incidents that no regression maps.
    """
    from agentic_evals.regressions.audit import needs_attention, show_skill
    from agentic_evals.regressions.findings import show_findings
    from agentic_evals.regressions.render import render_show
    from agentic_evals.regressions.skill import RegressionsInputError

    try:
        outcome = show_skill(skill_dir, freshness_days, evals)
    except RegressionsInputError as error:
        refuse("regressions show", error)
    echo_findings(outcome.load.findings)
    if outcome.show is None:
        click.echo(f"{outcome.load.path}: invalid registry", err=True)
        finish(ExitCode.INVALID)
    code = verdict_code(not_ready=needs_attention(outcome.show.summary), report_only=report_only)
    show_document = outcome.show
    sarif = SarifSource("regressions-show", lambda: show_findings(show_document))
    emit_document(
        code,
        render_show(show_document, int(code)),
        show_document,
        fmt=fmt,
        output=output,
        sarif=sarif,
    )


@regressions.command(
    "audit",
    epilog=(
        "Example: agentic-evals regressions audit skills/ -o regressions-audit.json\n\n"
        "Exit codes: 0 nothing to fix (or --report-only), 1 some ACTIVE regression is "
        "unprotected or never proven or an open incident is unmapped, 2 ROOT is not a folder "
        "or some registry is invalid (the others are still audited and written)."
    ),
)
@click.argument("root", type=_PATH)
@OUTPUT
@_FRESHNESS
@_REPORT_ONLY
@evals_option
@format_option
def audit(
    root: Path,
    output: Path | None,
    freshness_days: int,
    report_only: bool,
    evals: Path | None,
    fmt: str,
) -> None:
    """Audit the registry of every skill folder of ROOT (subfolders with fixtures/regressions.json).

    Other fixtures/regressions* files (another tool's format) are listed as skipped.
    """
    from agentic_evals.regressions.audit import needs_attention
    from agentic_evals.regressions.findings import audit_findings
    from agentic_evals.regressions.render import render_audit
    from agentic_evals.regressions.skill import RegressionsInputError
    from agentic_evals.regressions.tree import audit_tree

    try:
        document = audit_tree(root, freshness_days, evals)
    except RegressionsInputError as error:
        refuse("regressions audit", error)
    for skill in document.skills:
        echo_findings([finding for finding in skill.findings if finding.severity == "error"])
    code = verdict_code(
        invalid=bool(document.summary.invalid),
        not_ready=needs_attention(document.summary.regressions),
        report_only=report_only,
    )
    sarif = SarifSource("regressions-audit", lambda: audit_findings(document))
    emit_document(
        code, render_audit(document, int(code)), document, fmt=fmt, output=output, sarif=sarif
    )


@regressions.command(
    "verify",
    epilog=(
        "Example: agentic-evals regressions verify .\n\n"
        "(run in a skill folder, such as this project's root, whose own registry verifies); "
        "then record it: agentic-evals regressions verify . --write\n\n"
        "Exit codes: 0 every ACTIVE proof verified (or --report-only), 1 some ACTIVE proof is "
        "unproven or weak, 2 no folder, no registry or an invalid one, 129/130/143 interrupted."
    ),
)
@click.argument("skill_dir", type=_PATH)
@OUTPUT
@click.option(
    "--guard", is_flag=True, help="proof_command records: also run the retained case now."
)
@click.option(
    "--write",
    is_flag=True,
    help="Record last_proven and the verification record of the verified regressions.",
)
@click.option("--keep", is_flag=True, help="Keep each broken tree and print where it is.")
@_REPORT_ONLY
@TIMEOUT
@evals_option
def verify(
    skill_dir: Path,
    output: Path | None,
    guard: bool,
    write: bool,
    keep: bool,
    report_only: bool,
    timeout_seconds: float,
    evals: Path | None,
) -> None:
    """Prove that each ACTIVE regression's guard catches its bug: fail before, pass after.

    A patch, git_ref or mutation proof puts the bug back in a private copy of
    SKILL_DIR (your checkout is never modified) and runs the retained case
    there, with its own oracles, trials and environment: it must FAIL showing
    the record's failure_code in every trial. Then it runs on SKILL_DIR as it
    is: it must PASS. A proof_command's output is its own word: it is at most
    weak, never verified.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.regressions.render import render_verify
    from agentic_evals.regressions.skill import RegressionsInputError
    from agentic_evals.regressions.verify import VerifyOptions, verify_skill
    from agentic_evals.regressions.write import RegistryChangedError

    check_outputs("regressions verify", [output])
    options = VerifyOptions(
        timeout_seconds=timeout_seconds, guard=guard, write=write, keep=keep, evals=evals
    )
    try:
        outcome = verify_skill(skill_dir, options)
    except (RegressionsInputError, RegistryChangedError) as error:
        refuse("regressions verify", error)
    echo_findings(outcome.load.findings)
    if outcome.verify is None:
        click.echo(f"{outcome.load.path}: invalid registry; nothing was run", err=True)
        finish(ExitCode.INVALID)
    document = outcome.verify
    if outcome.interrupted_by is not None:
        code = ExitCode(128 + outcome.interrupted_by)
    else:
        code = verdict_code(
            not_ready=bool(document.unproven or document.weak), report_only=report_only
        )
    emit(code, render_verify(document, int(code)), output=output, document=document)


regressions.add_command(add)
