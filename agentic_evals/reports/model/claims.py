"""Report models of claim-level readiness (SPEC sections 4 to 6).

``capability_readiness`` and ``qualification`` of an ``agentic_evals.report.v2``
report. Each claim carries its declaration and the static evidence facts of
its supporting cases (:class:`ClaimEvidence`), so that a merge of shard
reports can recompute every verdict from the merged cases alone.
"""

from agentic_evals.contract.vocabulary import QualificationTier
from agentic_evals.documents.base import OutputModel
from agentic_evals.reports.model.outcomes import ClaimVerdict, ClassVerdict, Readiness


class ExemptEvidence(OutputModel):
    """A valid exemption: the class is EXEMPT, which never makes a claim PROVEN."""

    evidence_class: str
    """The exempted class."""
    reason_code: str
    """Why, as a code."""
    justification: str
    """Why, in words."""
    owner: str
    """Who answers for it."""
    expires: str
    """When it lapses (a date-only value lasts through that day)."""


class IgnoredExemption(OutputModel):
    """An exemption that does not apply, and why."""

    index: int
    """Position in the claim's ``exemptions``."""
    evidence_class: str | None
    """The class it names, if any."""
    reason: str
    """``EXPIRED``, ``INCOMPLETE``, ``INVALID_EXPIRES`` or ``CLASS_NOT_REQUIRED``."""
    missing_fields: list[str]
    """Required fields it lacks (for ``INCOMPLETE``)."""
    expires: str | None
    """Its ``expires`` as written."""


class Threat(OutputModel):
    """The threat an adversarial supporting case models."""

    case: str
    """The case name."""
    model: str
    """The threat model."""
    subverted_by: list[str]
    """How the defence could be subverted."""
    adversarial_goal: str
    """What the adversary wants."""


class ClaimEvidence(OutputModel):
    """What a supporting case can prove for one claim (static: known before it runs)."""

    case: str
    """The case name."""
    type: str
    """``positive`` (a producer case) or ``negative``/``adversarial`` (a verifier case)."""
    declared_evidence_class: str
    """Evidence class as declared."""
    effective_evidence_class: str
    """Evidence class after live qualification: the slot it may fill."""
    live_qualified: bool
    """A live declaration survived qualification."""
    representation: str | None
    """The representation of a value-bearing claim it covers."""
    ineligible: list[str]
    """Why it cannot fill the claim's slot (empty: eligible)."""
    threat: Threat | None
    """Its threat assumption, if any."""


class Requalification(OutputModel):
    """A supporting case that must be (re-)admitted before it counts for the claim."""

    case: str
    """The case name."""
    reasons: list[str]
    """``NOT_ADMITTED``, ``TEST_SOURCE_CHANGED``, ``ORACLE_CHANGED`` and/or ``CLAIM_CHANGED``."""


class Independence(OutputModel):
    """Whether verifier cases reach beyond the producer's own representations."""

    producer_cases: list[str]
    """Supporting positive cases (the producer's own)."""
    verifier_cases: list[str]
    """Supporting negative and adversarial cases."""
    producer_representations: list[str]
    """Representations the producer's cases cover."""
    verifier_only_representations: list[str]
    """Representations only verifier cases cover."""
    independent: bool
    """False flags the claim: its verifiers cover nothing beyond the producer's cases."""


class ClaimDeclaration(OutputModel):
    """What a claim declares, and whether the fixture declares the seam it needs."""

    id: str
    """Claim id."""
    description: str
    """What the claim says."""
    criticality: str
    """``critical``, ``important`` or ``optional``."""
    claim_semantics: str | None
    """Kind of claim."""
    domain_profile: str | None
    """Representation matrix of a value-bearing claim."""
    evidence_required: list[str]
    """Classes that must each be PROVEN."""
    value_representation_seam: bool | None
    """A critical ``value-representation`` seam is declared; null when not value-bearing."""
    claim_sha256: str | None = None
    """sha256 of the claim's definition (all but ``admitted_evidence``), which an admission
    can pin; null in reports that predate it."""


class ClaimReadiness(ClaimDeclaration):
    """One capability claim: its declaration, evidence and verdict."""

    verdict: ClaimVerdict
    """``PROVEN``, ``PARTIALLY_PROVEN``, ``BLOCKED_EXTERNAL``, ``FAILED`` or ``NOT_ESTABLISHED``."""
    per_class: dict[str, ClassVerdict]
    """Verdict per required class."""
    class_cases: dict[str, list[str]]
    """Eligible supporting cases per required class."""
    missing_evidence: list[str]
    """Required classes with no evidence at all (neither run nor exempt)."""
    exempt_evidence: list[ExemptEvidence]
    """Valid exemptions; they never make the claim PROVEN."""
    ignored_exemptions: list[IgnoredExemption]
    """Expired, incomplete or inapplicable exemptions."""
    unqualified_live_cases: list[str]
    """Supporting cases that declared a live class and were downgraded."""
    supporting_cases: list[str]
    """Every case that lists the claim in ``supports_claims``."""
    requires_requalification: list[Requalification]
    """Supporting cases whose hashes differ from the claim's ``admitted_evidence``."""
    shared_live_cases: list[str]
    """Live cases supporting several claims without per-claim artifacts: they count for none."""
    required_representations: list[str]
    """The matrix of a value-bearing claim (empty otherwise)."""
    missing_representations: list[str]
    """Representations without a passing, eligible adversarial supporting case."""
    independence: Independence | None
    """Producer/verifier independence; null when not value-bearing."""
    threats: list[Threat]
    """Threat assumptions of the supporting cases."""
    evidence: list[ClaimEvidence]
    """The supporting cases and what each can prove."""


class CapabilityReadiness(OutputModel):
    """Readiness over the declared capability claims."""

    aggregate_readiness: Readiness
    """READY when every critical claim (or, with none, every claim) is PROVEN."""
    critical_claim_count: int
    """Claims of criticality ``critical``."""
    critical_claims_proven: int
    """Critical claims that are PROVEN."""
    claims: list[ClaimReadiness]
    """Every declared claim, in fixture order."""


class QualificationReport(OutputModel):
    """Cases grouped by the highest qualification tier they passed at."""

    run_tier: QualificationTier
    """The tier of the environment the run happened in (``run --tier``)."""
    require_system_test: bool
    """``--require-system-test`` was given."""
    passed_at: dict[str, list[str]]
    """Tier to the names of the cases that passed at it (every tier present)."""
    not_passed: list[str]
    """Cases that did not pass, so reached no tier."""
    missing_system_test: list[str]
    """Required cases that needed system_test and did not reach it."""
