"""Live qualification: a live declaration is checked, never taken on trust (SPEC 4). Pure.

A case declaring ``live_e2e`` or ``adversarial_live_e2e`` (an absent
``evidence_class`` declares ``live_e2e``) keeps its class only when all of
these hold; each failure adds a stable code to ``evidence_disqualifiers``:

- it does not feed itself stubs: ``mocked``, ``uses_stub``, or an argument
  (or input redirection) of a command it really runs under ``fixtures/``
  (``LIVE_MOCKED``, ``LIVE_USES_STUB``, ``LIVE_STUB_INPUT``);
- one of the simple commands it actually runs reaches a production
  entrypoint, read structurally (``: run.sh`` or an argument that mentions
  ``e2e`` do not; ``LIVE_NO_ENTRYPOINT``);
- it has an independent readback oracle (see :mod:`.readback`;
  ``LIVE_NO_READBACK``);
- a browser-driven ``ask`` workflow is executed and its run artifacts read
  back (see :mod:`.browser`).

A downgraded case becomes ``fault_injected_deterministic`` when it is a
fault on a real path (it reaches an entrypoint and is ``negative`` or
``adversarial``), else ``deterministic``. Other classes are reported as
declared, with ``live_qualified`` false.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from agentic_evals import codes
from agentic_evals.commands.analysis import CommandAnalysis, analyze
from agentic_evals.commands.context import case_context
from agentic_evals.contract.models import Case, Fixture
from agentic_evals.contract.vocabulary import LIVE_CLASSES, EvidenceClass
from agentic_evals.evidence.browser import ask_disqualifiers
from agentic_evals.evidence.readback import has_readback

DEFAULT_CLASS: EvidenceClass = "live_e2e"
"""The class a case without ``evidence_class`` declares."""


class LiveQualification(NamedTuple):
    """A case's evidence class before and after live qualification."""

    declared: EvidenceClass
    """As declared (absent declares ``live_e2e``)."""
    effective: EvidenceClass
    """After qualification: the slot the case may fill."""
    live_qualified: bool
    """A live declaration survived qualification."""
    disqualifiers: list[str]
    """Stable codes of why a live declaration was downgraded."""


def declared_class(case: Case) -> EvidenceClass:
    """The class ``case`` declares: its ``evidence_class``, or ``live_e2e`` when absent."""
    return case.evidence_class or DEFAULT_CLASS


def disqualifiers(case: Case, analysis: CommandAnalysis, skill: str) -> list[str]:
    """Every reason ``case`` cannot count as live (empty: it qualifies)."""
    found: list[str] = []
    if case.mocked:
        found.append(codes.LIVE_MOCKED)
    if case.uses_stub:
        found.append(codes.LIVE_USES_STUB)
    if analysis.stubs:
        found.append(codes.LIVE_STUB_INPUT)
    if not analysis.entrypoints:
        found.append(codes.LIVE_NO_ENTRYPOINT)
    if not has_readback(case):
        found.append(codes.LIVE_NO_READBACK)
    found.extend(ask_disqualifiers(case, analysis, skill))
    return found


def qualify(case: Case, analysis: CommandAnalysis, skill: str) -> LiveQualification:
    """Qualify one case whose command was read structurally as ``analysis``."""
    declared = declared_class(case)
    if declared not in LIVE_CLASSES:
        return LiveQualification(declared, declared, False, [])
    reasons = disqualifiers(case, analysis, skill)
    if not reasons:
        return LiveQualification(declared, declared, True, [])
    fault = bool(analysis.entrypoints) and case.type in ("negative", "adversarial")
    effective: EvidenceClass = "fault_injected_deterministic" if fault else "deterministic"
    return LiveQualification(declared, effective, False, reasons)


def qualify_cases(fixture: Fixture, fixture_dir: Path) -> dict[str, LiveQualification]:
    """Qualify every case of ``fixture`` (living in ``fixture_dir``), by case name.

    Only live declarations need their command read (which looks at files).
    """
    found: dict[str, LiveQualification] = {}
    for case in fixture.cases:
        declared = declared_class(case)
        if declared not in LIVE_CLASSES:
            found[case.name] = LiveQualification(declared, declared, False, [])
            continue
        analysis = analyze(case.command, case_context(fixture, case, fixture_dir))
        found[case.name] = qualify(case, analysis, fixture.skill)
    return found
