"""Evidence identity: which case may fill which claim's slot (SPEC section 4). Pure.

Admitted evidence. A claim's ``admitted_evidence`` pins, per case, the
``test_source_sha256`` (the case without ``expected``) and ``oracle_sha256``
(its ``expected``) admitted for it. Once a claim lists admitted evidence, the
list is the whole admission: a supporting case that is not listed is
``NOT_ADMITTED``, and a listed case whose current hash differs from a pinned
one is ``TEST_SOURCE_CHANGED`` or ``ORACLE_CHANGED``. Either way the case
cannot fill the claim's slot until it is (re-)admitted; the report lists it in
``requires_requalification``. Editing an expectation to match broken output
changes ``oracle_sha256``, so it cannot silently keep a claim PROVEN. An entry
may also pin ``claim_sha256``, the hash of the claim's own definition
(:func:`claim_sha256`): lowering the claim's criticality or its required
evidence changes it (``CLAIM_CHANGED``), so the admission must be renewed. A
hash an entry leaves out is not pinned. A claim without ``admitted_evidence``
pins nothing.

Shared live cases. A live case supporting several claims proves each of them
only with independent per-claim artifacts (see
:func:`agentic_evals.evidence.checks.claims_with_own_artifacts`); without
them it counts for none of its claims (``SHARED_LIVE_CASE``).
"""

from __future__ import annotations

from agentic_evals import codes
from agentic_evals.contract.claims import AdmittedEvidence, CapabilityClaim
from agentic_evals.judge.provenance import canonical_json, sha256_bytes


def claim_sha256(claim: CapabilityClaim) -> str:
    """The hex sha256 of the claim's definition: every field but ``admitted_evidence``.

    Defaults are filled in, so writing a default out does not change it.
    """
    definition = claim.model_dump(mode="json", exclude={"admitted_evidence"})
    return sha256_bytes(canonical_json(definition))


def normalise_hash(value: str) -> str:
    """A sha256 as bare lower-case hex (``sha256:`` prefix and case ignored)."""
    return value.strip().lower().removeprefix("sha256:")


def admission(claim: CapabilityClaim, case_name: str) -> AdmittedEvidence | None:
    """The admitted-evidence entry of ``claim`` for ``case_name``, if any."""
    return next((entry for entry in claim.admitted_evidence if entry.case == case_name), None)


def requalification_reasons(
    claim: CapabilityClaim, case_name: str, *, test_source_sha256: str, oracle_sha256: str
) -> list[str]:
    """Why the case named ``case_name`` must be (re-)admitted for ``claim`` (empty: it need not)."""
    if not claim.admitted_evidence:
        return []
    entry = admission(claim, case_name)
    if entry is None:
        return [codes.NOT_ADMITTED]
    reasons: list[str] = []
    pinned = (
        (entry.test_source_sha256, test_source_sha256, codes.TEST_SOURCE_CHANGED),
        (entry.oracle_sha256, oracle_sha256, codes.ORACLE_CHANGED),
        (entry.claim_sha256, claim_sha256(claim), codes.CLAIM_CHANGED),
    )
    for admitted, current, reason in pinned:
        if admitted is not None and normalise_hash(admitted) != normalise_hash(current):
            reasons.append(reason)
    return reasons
