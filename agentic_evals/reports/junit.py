"""The report as JUnit XML, for every CI system's test view. Pure.

One ``testsuite`` per fixture (a report covers one) inside ``testsuites``;
one ``testcase`` per case (``classname`` the skill, ``name`` the case name,
``time`` the sum of its trials' durations); then one ``testcase`` per
capability claim, named ``claim:<id>``. The document validates against the
Jenkins JUnit schema (``junit-10.xsd``), which allows no properties inside a
testcase: a case's properties and per-trial detail go to its ``system-out``.
Mapping (``docs/outputs.md``):

- case FAIL: ``failure`` (message: the problems; text: the first failing
  trial's output tails); BLOCKED and NOT_TESTED: ``skipped`` with the reason;
- claim FAILED, or a critical claim not PROVEN (it keeps the gate from READY):
  ``failure``; BLOCKED_EXTERNAL, and other claims not PROVEN: ``skipped``.

Names are unique within the suite (GitLab keeps only the first of
duplicates): a repeat gets `` [2]``, `` [3]``...
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Final

from agentic_evals.reports.failure import failure_detail, trial_line
from agentic_evals.reports.model import CaseReport, ClaimReadiness, Report
from agentic_evals.reports.reason import readiness_reason

MESSAGE_CHARS: Final = 1000
# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _seconds(milliseconds: int) -> str:
    return f"{milliseconds / 1000:.3f}"


def _problems(case: CaseReport) -> str:
    text = "; ".join(f"{p.code}: {p.message}" for p in case.problems) or case.outcome
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _tail_text(case: CaseReport) -> str:
    detail = failure_detail(case)
    if detail is None:
        return ""
    lines = [f"first failing trial: {trial_line(detail.trial)}"]
    for tail in detail.tails:
        lines.append(tail.heading(detail.trial.trial_id))
        lines.extend(f"  {line}" for line in tail.lines)
    return "\n".join(lines) + "\n"


def _system_out(case: CaseReport) -> str:
    """The case's properties and per-trial detail."""
    lines = [
        f"case_id: {case.case_id}",
        f"outcome: {case.outcome}",
        f"flaky: {str(case.flaky).lower()}",
        f"required: {str(case.required).lower()}",
        f"passed_trials: {case.passed_trials}/{case.total_trials}",
        f"effective_evidence_class: {case.effective_evidence_class}",
        f"oracle_sha256: {case.oracle_sha256}",
        "trials:",
    ]
    for trial in case.trials:
        lines.append(f"  {trial_line(trial)}")
        lines.extend(f"    {p.code}: {p.message}" for p in trial.problems)
    return "\n".join(lines) + "\n"


class _Names:
    """Hands out suite-unique test names."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def unique(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self._seen:
            n += 1
            candidate = f"{name} [{n}]"
        self._seen.add(candidate)
        return candidate


def _case_element(case: CaseReport, skill: str, names: _Names) -> ET.Element:
    total_ms = sum(trial.duration_ms for trial in case.trials)
    element = ET.Element(
        "testcase", classname=skill, name=names.unique(case.name), time=_seconds(total_ms)
    )
    if case.outcome == "FAIL":
        failure = ET.SubElement(element, "failure", type="FAIL", message=_clean(_problems(case)))
        failure.text = _clean(_tail_text(case))
    elif case.outcome in ("BLOCKED", "NOT_TESTED"):
        skipped = ET.SubElement(
            element, "skipped", type=case.outcome, message=_clean(_problems(case))
        )
        skipped.text = _clean(_tail_text(case)) or None
    ET.SubElement(element, "system-out").text = _clean(_system_out(case))
    return element


def _claim_status(claim: ClaimReadiness) -> str:
    """``pass``, ``failure`` or ``skipped`` (see the module docstring)."""
    if claim.verdict == "PROVEN":
        return "pass"
    if claim.verdict == "FAILED":
        return "failure"
    if claim.verdict == "BLOCKED_EXTERNAL" or claim.criticality != "critical":
        return "skipped"
    return "failure"


def _claim_element(claim: ClaimReadiness, skill: str, names: _Names) -> ET.Element:
    element = ET.Element("testcase", classname=skill, name=names.unique(f"claim:{claim.id}"))
    element.set("time", "0.000")
    missing = f"; missing {', '.join(claim.missing_evidence)}" if claim.missing_evidence else ""
    message = _clean(f"{claim.criticality} claim {claim.verdict}{missing}")
    status = _claim_status(claim)
    if status != "pass":
        ET.SubElement(element, status, type=claim.verdict, message=message)
    per_class = [f"  {cls}: {verdict}" for cls, verdict in claim.per_class.items()]
    text = [f"verdict: {claim.verdict}", f"criticality: {claim.criticality}", "per_class:"]
    text += per_class + [f"supporting_cases: {', '.join(claim.supporting_cases) or 'none'}"]
    ET.SubElement(element, "system-out").text = _clean("\n".join(text) + "\n")
    return element


def _properties(report: Report) -> ET.Element:
    properties = ET.Element("properties")
    for name, value in (
        ("readiness", report.readiness),
        ("reason", readiness_reason(report)),
        ("case_readiness", report.case_readiness),
        ("run_id", report.run_id),
        ("fixture_sha256", report.fixture_sha256),
        ("runner_version", report.runner.version),
    ):
        ET.SubElement(properties, "property", name=name, value=_clean(value))
    return properties


def render_junit(report: Report) -> str:
    """Return the report as a JUnit XML document (UTF-8 text with a declaration)."""
    names = _Names()
    cases = [_case_element(case, report.skill, names) for case in report.cases]
    claims = report.capability_readiness.claims if report.capability_readiness else []
    cases += [_claim_element(claim, report.skill, names) for claim in claims]
    failures = sum(1 for c in cases if c.find("failure") is not None)
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    time = _seconds(report.duration_ms)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0"}
    root = ET.Element("testsuites", {"name": "agentic-evals", "time": time, **counts})
    suite_attributes = {
        "name": report.skill,
        **counts,
        "skipped": str(skipped),
        "time": time,
        "timestamp": report.generated_at,
        "file": _clean(report.source),
        "id": report.run_id,
    }
    suite = ET.SubElement(root, "testsuite", suite_attributes)
    suite.append(_properties(report))
    suite.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"
