"""What a fixture declares about its skill.

Capability claims with their exemptions and admitted evidence, seams, and the
proof-scope prose (SPEC sections 4 to 7).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agentic_evals.contract.vocabulary import (
    ClaimSemantics,
    Criticality,
    DomainProfile,
    EvidenceClass,
)
from agentic_evals.documents.base import InputModel

NonEmptyStr = Annotated[str, Field(min_length=1)]


class Exemption(InputModel):
    """A time-limited, owned exemption from one evidence class."""

    evidence_class: EvidenceClass | None = None
    """The exempted class."""
    reason_code: str | None = None
    """Why, as a code."""
    justification: str | None = None
    """Why, in words."""
    owner: str | None = None
    """Who answers for it."""
    expires: str | None = None
    """ISO date or datetime after which it no longer applies."""


class AdmittedEvidence(InputModel):
    """Hashes of a case admitted as evidence for a claim."""

    case: NonEmptyStr
    """The case name."""
    test_source_sha256: str | None = None
    """Admitted hash of the case without ``expected``."""
    oracle_sha256: str | None = None
    """Admitted hash of ``expected``."""
    claim_sha256: str | None = None
    """Admitted hash of the claim's own definition (everything but ``admitted_evidence``): a
    claim lowered in criticality or evidence needs re-admission."""


class CapabilityClaim(InputModel):
    """A capability the skill asserts."""

    id: NonEmptyStr
    """Unique claim id."""
    description: str = ""
    """What the claim says."""
    criticality: Criticality = "critical"
    """``critical`` (default), ``important`` or ``optional``."""
    evidence_required: (
        dict[EvidenceClass, bool] | Annotated[list[EvidenceClass], Field(min_length=1)]
    )
    """Required evidence classes: ``{class: true}`` or a list."""
    claim_semantics: ClaimSemantics | None = None
    """Kind of claim; required for critical claims."""
    domain_profile: DomainProfile | None = None
    """Representation matrix; required for value-bearing claims."""
    invariant: str | None = None
    """The invariant in the customer's words."""
    exemptions: list[Exemption] = Field(default_factory=list)
    """Explicit, expiring exemptions."""
    admitted_evidence: list[AdmittedEvidence] = Field(default_factory=list)
    """Cases admitted as evidence, pinned by hash."""


class Seam(InputModel):
    """A place where regressions can enter."""

    seam_id: NonEmptyStr
    """Unique seam id."""
    seam_type: str = ""
    """Kind of seam, e.g. ``value-representation``."""
    criticality: str = "critical"
    """How bad a regression here would be."""
    required_evidence: list[EvidenceClass] | dict[EvidenceClass, bool] = Field(default_factory=list)
    """Evidence classes a capable guard must exist in."""
    claim_id: str | None = None
    """The claim this seam belongs to."""


class ProofClaims(InputModel):
    """Proof-scope prose, reported verbatim."""

    proves: str | None = None
    """What the fixture proves."""
    does_not_prove: str | None = None
    """What it does not prove."""
