"""``agentic-evals compare``: two runs paired by case id; exit 1 on a regression or weakening."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import emit, refuse, verdict_code
from agentic_evals.cli._history_options import history_url_option


@click.command(
    "compare",
    epilog=(
        "Example: agentic-evals compare main-report.json report.json -o compare.json\n\n"
        "Example: agentic-evals compare last~1 last --format markdown\n\n"
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
@history_url_option
def compare(
    base: str, head: str, output: Path | None, report_only: bool, fmt: str, history_url: str | None
) -> None:
    """Compare HEAD with BASE: regressed, fixed, new_flaky, weakened, ...

    BASE and HEAD are report files, or runs recorded in the history: a run id, a
    unique prefix of one, last or last~N (last~1 is the run before the last).

    Cases are paired by case_id. A case is weakened when it checks less: an
    oracle removed or loosened, trials lowered, made optional (docs/compare.md).
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.compare.classify import NotComparableError, compare_reports
    from agentic_evals.compare.render import render_markdown, render_text
    from agentic_evals.compare.sources import ReportSourceError, resolve_report

    if output is not None:
        check_outputs("compare", [output], [Path(base), Path(head)])  # only files can clash
    try:
        old, new = resolve_report(base, history_url), resolve_report(head, history_url)
        result = compare_reports(
            old.report, new.report, base_source=old.source, head_source=new.source
        )
    except (ReportSourceError, NotComparableError) as error:
        refuse("compare", f"not comparable: {error}")
    code = verdict_code(not_ready=result.gate_failed, report_only=report_only)
    text = render_markdown(result) if fmt == "markdown" else render_text(result, int(code))
    emit(code, text, output=output, document=result)
