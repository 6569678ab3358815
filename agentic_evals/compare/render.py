"""``compare`` for people: a terminal summary and a Markdown comment. Pure."""

from __future__ import annotations

from agentic_evals.compare.models import CLASSES, Comparison

_SHOWN = 20


def _class_lines(result: Comparison, bullet: str) -> list[str]:
    lines = []
    for name in CLASSES:
        ids: list[str] = getattr(result, name)
        if not ids or name == "unchanged":
            continue
        more = f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else ""
        lines.append(f"{bullet}{name} ({len(ids)}): {', '.join(ids[:_SHOWN])}{more}")
    return lines


def _detail_lines(result: Comparison, bullet: str) -> list[str]:
    lines = []
    for case in result.cases:
        for change in case.weakened:
            lines.append(f"{bullet}{case.case_id}: {change.kind} {change.check} {change.detail}")
    for claim in result.claims:
        for change in claim.weakened:
            lines.append(f"{bullet}claim {claim.id}: {change.kind} {change.detail}")
        if claim.change == "worse":
            lines.append(f"{bullet}claim {claim.id}: {claim.base_verdict} -> {claim.head_verdict}")
    for item in result.skill_files_changed:
        lines.append(f"{bullet}skill file {item.path} changed ({len(item.cases)} case(s) run it)")
    return lines


def render_text(result: Comparison, exit_code: int) -> str:
    """The terminal summary of a comparison."""
    delta = result.readiness
    lines = [
        f"agentic-evals compare: {result.base.skill} "
        f"({result.base.source} -> {result.head.source})",
        f"readiness: {delta.base} -> {delta.head} ({delta.change})",
        *_class_lines(result, "  "),
        f"  unchanged: {len(result.unchanged)}",
    ]
    details = _detail_lines(result, "    ")
    if details:
        lines += ["checks less, regressed claims, changed skill files:", *details]
    verdict = "regression or weakening" if result.gate_failed else "no regression, no weakening"
    lines.append(f"compare: {verdict} (exit {exit_code})")
    return "\n".join(lines) + "\n"


def render_markdown(result: Comparison) -> str:
    """The comparison as a Markdown comment for a pull request."""
    delta = result.readiness
    mark = "❌" if result.gate_failed else "✅"
    lines = [
        f"### {mark} agentic-evals compare: {result.base.skill}",
        "",
        f"Readiness `{delta.base}` → `{delta.head}` ({delta.change}).",
        "",
        *_class_lines(result, "- "),
        f"- unchanged: {len(result.unchanged)}",
    ]
    details = _detail_lines(result, "- ")
    if details:
        lines += ["", "**What checks less, regressed claims, changed skill files**", "", *details]
    return "\n".join(lines) + "\n"
