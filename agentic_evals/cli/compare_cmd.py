"""``agentic-evals compare``: two runs paired by case id; exit 1 on a regression or weakening."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import emit, refuse, verdict_code


@click.command(
    "compare",
    epilog=(
        "Example: agentic-evals compare main-report.json report.json -o compare.json\n\n"
        "Exit codes: 0 no regression and nothing checks less (or --report-only), 1 a case "
        "regressed or checks less, a claim asks for less or got worse, or readiness got worse, "
        "2 the reports cannot be read or compared."
    ),
)
@click.argument("base")
@click.argument("head")
@click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Write the comparison as JSON."
)
@click.option("--report-only", is_flag=True, help="Exit 0 whatever the comparison found.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="What to print: the terminal summary, or Markdown for a pull-request comment.",
)
def compare(base: str, head: str, output: Path | None, report_only: bool, fmt: str) -> None:
    """Compare HEAD with BASE (report files): regressed, fixed, new_flaky, weakened, ...

    Cases are paired by case_id. A case is weakened when it checks less: an
    oracle removed or loosened, trials lowered, made optional (docs/compare.md).
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.compare.classify import NotComparableError, compare_reports
    from agentic_evals.compare.render import render_markdown, render_text
    from agentic_evals.compare.sources import ReportSourceError, resolve_report

    if output is not None:
        check_outputs("compare", [output], [Path(base), Path(head)])
    try:
        base_report, head_report = resolve_report(base), resolve_report(head)
        result = compare_reports(base_report, head_report, base_source=base, head_source=head)
    except (ReportSourceError, NotComparableError) as error:
        refuse("compare", f"not comparable: {error}")
    code = verdict_code(not_ready=result.gate_failed, report_only=report_only)
    text = render_markdown(result) if fmt == "markdown" else render_text(result, int(code))
    emit(code, text, output=output, document=result)
