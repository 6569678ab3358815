"""``agentic-evals plan-journeys``: bind requirements to observed UI controls by QID."""

from __future__ import annotations

from pathlib import Path

import click

from agentic_evals.cli._exit import echo_findings, emit, refuse, verdict_code

_FILE = click.Path(path_type=Path)


@click.command(
    "plan-journeys",
    epilog=(
        "Example: agentic-evals plan-journeys --fixture fixtures/agentic_eval.json "
        "--requirements requirements.json --interaction-inventory inventory.json "
        "--state-graph state-graph.json --output plan.json\n\n"
        "Exit codes: 0 every critical requirement is BOUND (or any, with --report-only), "
        "1 some critical requirement is not, 2 invalid input (nothing is written)."
    ),
)
@click.option("--fixture", required=True, type=_FILE, help="The skill's fixture (claims, seams).")
@click.option(
    "--requirements", required=True, type=_FILE, help="agentic_evals.requirements.v1 document."
)
@click.option(
    "--interaction-inventory",
    "inventory",
    required=True,
    type=_FILE,
    help="Observed controls (agentic_evals.interaction_inventory.v1).",
)
@click.option(
    "--state-graph",
    "state_graph",
    required=True,
    type=_FILE,
    help="States and transitions by QID (agentic_evals.state_graph.v1).",
)
@click.option(
    "-o", "--output", required=True, type=_FILE, help="Write the journey plan ('-': stdout)."
)
@click.option(
    "--scaffold-output", type=_FILE, help="Also write candidate fixture cases for BOUND journeys."
)
@click.option("--report-only", is_flag=True, help="Exit 0 whatever the binding.")
def plan_journeys(
    fixture: Path,
    requirements: Path,
    inventory: Path,
    state_graph: Path,
    output: Path,
    scaffold_output: Path | None,
    report_only: bool,
) -> None:
    """Bind requirements to the controls discovery observed, by stable QID only.

    Each requirement is BOUND, PARTIALLY_BOUND, UNBOUND or NOT_APPLICABLE; the
    plan also lists weak oracles, claim traceability and missing critical
    journeys. A control named by selector instead of QID is invalid input.
    """
    from agentic_evals.cli._report_out import check_outputs
    from agentic_evals.reports.json_out import write_model_atomic
    from agentic_evals.skills.journeys.plan import JourneyInputs, plan_journeys, scaffold_fragment
    from agentic_evals.skills.render import render_plan

    check_outputs("plan-journeys", [output, scaffold_output])
    result = plan_journeys(JourneyInputs(fixture, requirements, inventory, state_graph))
    echo_findings(result.errors)
    if result.plan is None:
        refuse("plan-journeys", "invalid input; nothing was written")
    plan = result.plan
    echo_findings(plan.findings)
    code = verdict_code(not_ready=not plan.summary.critical_bound, report_only=report_only)
    if scaffold_output is not None:
        write_model_atomic(scaffold_output, scaffold_fragment(plan))
    emit(code, render_plan(plan, int(code)), output=output, document=plan)
