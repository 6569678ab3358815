"""What is live: a live declaration is checked, never taken on trust (SPEC 2 and 4). Pure.

One list of reasons a case does not count as live, each a stable code with
its reason in words, read by both the anti-slop gate and live qualification:

- it feeds itself stubs: ``mocked``, ``uses_stub``, or an argument (or input
  redirection) of a command it really runs under ``fixtures/``
  (``LIVE_MOCKED``, ``LIVE_USES_STUB``, ``LIVE_STUB_INPUT``);
- none of the simple commands it actually runs reaches a production
  entrypoint, read structurally (``: run.sh`` or an argument that mentions
  ``e2e`` do not; ``LIVE_NO_ENTRYPOINT``);
- none of its checks reads state back and fails on the null trial (see
  :mod:`.checks` and :mod:`.null_trial`; ``LIVE_NO_READBACK``);
- a browser-driven ``ask`` workflow is not executed, or its run artifacts
  are not read back (see :mod:`.browser`).

The first four say whether a case *exercises a live path without stubs*
(:data:`LIVE_PATH_CODES`), which the anti-slop gate asks of ``real_world``
cases. A case *declaring* ``live_e2e`` or ``adversarial_live_e2e`` (an absent
``evidence_class`` declares ``live_e2e``) keeps its class only when there is
no reason at all; else it is downgraded: to ``fault_injected_deterministic``
when it is a fault on a real path (it reaches an entrypoint and is
``negative`` or ``adversarial``), else to ``deterministic``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from agentic_evals import codes
from agentic_evals.commands.analysis import CommandAnalysis
from agentic_evals.contract.models import Case
from agentic_evals.contract.vocabulary import (
    DEFAULT_CLASS,
    HOSTILE_TYPES,
    LIVE_CLASSES,
    EvidenceClass,
)
from agentic_evals.evidence.browser import ask_disqualifiers

LIVE_PATH_CODES: Final = frozenset(
    {codes.LIVE_MOCKED, codes.LIVE_USES_STUB, codes.LIVE_STUB_INPUT, codes.LIVE_NO_ENTRYPOINT}
)
"""The reasons that say a case exercises no live path without stubs."""


class Disqualifier(NamedTuple):
    """One reason a case does not count as live."""

    code: str
    """Stable code, ``LIVE_*`` (reported in a case's ``evidence_disqualifiers``)."""
    reason: str
    """The reason in words, as the gate's messages say it."""


def declared_class(case: Case) -> EvidenceClass:
    """The class ``case`` declares: its ``evidence_class``, or ``live_e2e`` when absent."""
    return case.evidence_class or DEFAULT_CLASS


def disqualifiers(
    case: Case, analysis: CommandAnalysis, skill: str, readbacks: tuple[str, ...]
) -> list[Disqualifier]:
    """Every reason ``case`` (its command read as ``analysis``) does not count as live.

    ``readbacks`` are its oracles with a check that reads state back and fails on
    the null trial (see :mod:`.checks` and :mod:`.null_trial`).
    """
    found: list[Disqualifier] = []
    if case.mocked:
        found.append(Disqualifier(codes.LIVE_MOCKED, "is mocked"))
    if case.uses_stub:
        found.append(Disqualifier(codes.LIVE_USES_STUB, "uses stubs"))
    if analysis.stubs:
        reason = f"feeds itself stub inputs ({', '.join(analysis.stubs)})"
        found.append(Disqualifier(codes.LIVE_STUB_INPUT, reason))
    if not analysis.entrypoints:
        reason = f"reaches no entrypoint: {analysis.describe_not_live()}"
        found.append(Disqualifier(codes.LIVE_NO_ENTRYPOINT, reason))
    if not readbacks:
        reason = (
            "reads nothing back independently with a check that fails on the null trial "
            "(an artifact the command must write or change, a workspace_changes pattern)"
        )
        found.append(Disqualifier(codes.LIVE_NO_READBACK, reason))
    found += [Disqualifier(*pair) for pair in ask_disqualifiers(case, analysis, skill)]
    return found


def effective_class(
    case: Case, analysis: CommandAnalysis, reasons: list[Disqualifier]
) -> EvidenceClass:
    """The evidence slot ``case`` may fill: its declared class, unless a live one fell."""
    declared = declared_class(case)
    if declared not in LIVE_CLASSES or not reasons:
        return declared
    fault = bool(analysis.entrypoints) and case.type in HOSTILE_TYPES
    return "fault_injected_deterministic" if fault else "deterministic"
