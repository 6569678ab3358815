"""The fixture's vocabularies, each written once: a ``Literal`` and its values in order.

Everything else (the models, the report, the CLI's choices, coverage)
takes them from here. This module imports nothing heavy, so that a command's
options can name the values without importing the models.
"""

from typing import Final, Literal, get_args

CaseType = Literal["positive", "negative", "adversarial"]
HOSTILE_TYPES: Final[frozenset[CaseType]] = frozenset({"negative", "adversarial"})
"""Case types that expect the subject to refuse or fail: the fixture's own counter-evidence."""

EvalKind = Literal["skill", "runner_selftest", "scaffold"]
GATE_EXEMPT_KINDS: Final[frozenset[EvalKind]] = frozenset({"runner_selftest", "scaffold"})
"""Eval kinds that are honest exemptions from the load-time gates."""

EvidenceClass = Literal[
    "deterministic",
    "property_or_fuzz",
    "fault_injected_deterministic",
    "live_e2e",
    "adversarial_live_e2e",
    "human_evaluation",
]
EVIDENCE_CLASSES: Final[tuple[EvidenceClass, ...]] = get_args(EvidenceClass)
"""The six evidence classes, in the order reports list them."""
LIVE_CLASSES: Final[frozenset[EvidenceClass]] = frozenset({"live_e2e", "adversarial_live_e2e"})
DEFAULT_CLASS: Final[EvidenceClass] = "live_e2e"
"""The class a case without ``evidence_class`` declares."""

Criticality = Literal["critical", "important", "optional"]
CRITICALITIES: Final[tuple[Criticality, ...]] = get_args(Criticality)
"""From the most to the least critical."""

ClaimSemantics = Literal[
    "value_bearing", "protocol", "timing", "control_flow", "human_perceptual", "other"
]
VALUE_BEARING: Final[ClaimSemantics] = "value_bearing"

DomainProfile = Literal["json-scalar-v1", "sqlite-type-v1", "csv-cell-v1"]
MATRICES: Final[dict[DomainProfile, tuple[str, ...]]] = {
    "json-scalar-v1": ("string", "integer", "float", "scientific_notation"),
    "sqlite-type-v1": ("TEXT", "INTEGER", "REAL"),
    "csv-cell-v1": ("quoted", "unquoted"),
}
"""The representation matrix of each domain profile (ids are exact)."""
VALUE_SEAM_TYPE: Final = "value-representation"
"""The seam type a value-bearing claim needs a critical seam of."""

QualificationTier = Literal["system_test", "full_integration", "simulated", "unit", "not_required"]
QUALIFICATION_TIERS: Final[tuple[QualificationTier, ...]] = get_args(QualificationTier)
"""Qualification tiers from the highest to the lowest (SPEC section 6)."""
DEFAULT_RUN_TIER: Final[QualificationTier] = "unit"
"""The tier a run happens at unless ``run --tier`` says otherwise."""

IsolationMode = Literal["auto", "overlay", "copy", "none"]
"""A trial's view of the skill tree (``docs/isolation.md``)."""
NetworkMode = Literal["none", "host"]
"""A trial's network: a namespace with only loopback, or the host's."""
ArtifactComparison = Literal["json", "bytes", "text"]
"""How ``equals_artifact`` compares: JSON values at pointers, whole bytes, or normalised text."""
