"""The summary lines about isolation and containment (see docs/isolation.md)."""

from __future__ import annotations

from agentic_evals.reports.model import Report


def isolation_lines(report: Report) -> list[str]:
    """How trials were isolated, what contained them, and every warning about it."""
    summary = report.isolation
    if summary is None:
        return []
    modes = ", ".join(f"{count} {mode}" for mode, count in summary.modes.items())
    lines = [f"isolation: {modes or 'no trial ran'}"]
    if summary.shared_tree_trials:
        lines[0] += (
            f" ({summary.shared_tree_trials} on the shared tree, one at a time, "
            "never beside another trial)"
        )
    offline = summary.networks.get("none", 0)
    if offline:
        lines[0] += f"; network none: {offline}"
    if summary.mechanisms:
        lines.append("containment: " + ", ".join(summary.mechanisms))
    lines += [f"warning: {text}" for text in summary.warnings]
    for left in summary.leftovers:
        state = "still running" if left.still_running else "killed now"
        lines.append(
            f"warning: run {left.run_id} died and left pid {left.pid} ({left.name or '?'}) "
            f"running, found by {left.how}: {state}"
        )
    return lines
