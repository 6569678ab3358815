"""Typed models of a regression registry (``agentic_evals.regressions.v1``, SPEC section 8).

``fixtures/regressions.json`` ties each incident to a retained guard case and
an executable fail-before-fix proof. These models are the source of
``schemas/regressions.schema.json`` (``scripts/gen_schemas.py``). Unknown keys
are kept (``extra``) so that the loader warns about them instead of failing:
real registries carry prose such as ``rationale`` or ``fail_before_fix.expected``.
The aliases real registries use (``claims_threatened``, ``seams``,
``fail_before_fix.last_proven``) are fields of their own here, so the schema
accepts them; the loader warns about each and the properties below resolve them.

A fail-before-fix proof takes one of four forms: three structural ones that
put the bug back in a private copy of the skill tree (``patch``, ``git_ref``,
``mutation``), judged by running the retained case there, and the free-form
``proof_command``, which is at most ``weak``. ``verification`` is what
``regressions verify --write`` stores beside ``last_proven``: without it (or
with hashes that no longer match), ``last_proven`` establishes nothing.
"""

from typing import Annotated, Final, Literal

from pydantic import Field, JsonValue

from agentic_evals.contract.vocabulary import EvidenceClass
from agentic_evals.documents.base import InputModel

REGISTRY_SCHEMA: Final = "agentic_evals.regressions.v1"
DEFAULT_RETAINED_FIXTURE: Final = "agentic_eval.json"
DATE_PATTERN: Final = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
"""An ISO date, or the date part of an ISO timestamp (``2026-09-02T21:41:44Z``)."""

Status = Literal["ACTIVE", "EXEMPT", "RETIRED"]
ProofForm = Literal["patch", "git_ref", "mutation", "proof_command"]
STRUCTURAL_FORMS: Final = ("patch", "git_ref", "mutation")
"""The proof forms that re-introduce the bug in a private tree and run the guard there."""
COMMIT_PATTERN: Final = r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$"
"""A full commit id (SHA-1 or SHA-256): a branch or a tag can move, a commit cannot."""
SHA256_PATTERN: Final = r"^[0-9a-f]{64}$"
NonEmptyStr = Annotated[str, Field(min_length=1)]
IsoDate = Annotated[str, Field(pattern=DATE_PATTERN)]
Details = Annotated[dict[str, JsonValue], Field(min_length=1)]


class Mutation(InputModel):
    """A literal edit of one file of the skill tree that re-introduces the bug."""

    path: NonEmptyStr
    """The file, relative to the skill folder."""
    find: NonEmptyStr
    """The text to replace, literally (no pattern)."""
    replace: str
    """What replaces it."""
    count: Annotated[int, Field(ge=1)] | None = None
    """How many times ``find`` occurs (all are replaced); absent: exactly once."""


class FailBeforeFix(InputModel):
    """The proof that the guard fails against the broken behaviour."""

    patch: NonEmptyStr | None = None
    """A unified diff (relative to the registry's folder) that re-introduces the bug; its
    paths are relative to the skill folder (``git diff --relative`` writes them so)."""
    git_ref: NonEmptyStr | None = None
    """A full commit id (40 or 64 hex digits) at which the skill folder still had the bug."""
    mutation: Mutation | None = None
    """A literal edit of one file that re-introduces the bug."""
    proof_command: Annotated[list[NonEmptyStr], Field(min_length=1)] | None = None
    """Free form: program and arguments, run without a shell; at most ``weak``."""
    expected_fail: bool = True
    """``true``: the proof must exit non-zero; ``false``: it must exit 0."""
    expected_markers: list[NonEmptyStr] = []
    """Strings that must all appear in the proof's stdout or stderr: the guard's reason."""
    cwd: NonEmptyStr | None = None
    """Working directory, relative to the skill folder (default: the skill folder)."""
    last_proven: IsoDate | None = None
    """Alias of the record's ``last_proven`` (loads with a warning)."""

    @property
    def form(self) -> ProofForm | None:
        """The proof's form: the structural one given, else ``proof_command`` when there is one.

        With two structural forms (a load error) the first of patch, git_ref, mutation.
        """
        if self.patch is not None:
            return "patch"
        if self.git_ref is not None:
            return "git_ref"
        if self.mutation is not None:
            return "mutation"
        return "proof_command" if self.proof_command else None


class Verification(InputModel):
    """What ``verify --write`` recorded when the structural proof last verified."""

    date: IsoDate
    """The day it verified; ``last_proven`` must be the same day."""
    proof: ProofForm
    """The proof's form."""
    proof_sha256: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """The proof's hash: the patch file's bytes, the commit id, or the canonical mutation."""
    test_source_sha256: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """The retained case's ``test_source_sha256`` when it verified."""
    oracle_sha256: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """The retained case's ``oracle_sha256`` when it verified."""


class Incident(InputModel):
    """An incident the skill declares; open ones should be mapped by a regression."""

    id: NonEmptyStr
    """Stable id; a regression maps it when its ``incident`` names this id or ``issue``."""
    issue: NonEmptyStr | None = None
    """Tracker reference, e.g. ``owner/repo#123``."""
    status: NonEmptyStr | None = None
    """Open unless it says closed (``closed``, ``resolved``, ``fixed``, ``done``, ...)."""
    summary: str | None = None
    """What happened."""
    date: IsoDate | None = None
    """When it happened."""
    incident_class: str | None = Field(None, alias="class")
    """Kind of failure (``browser/UI transport``, ...)."""
    note: str | None = None
    """Free text."""


class Regression(InputModel):
    """One regression: an incident, the retained guard case, and its fail-before-fix proof."""

    regression_id: NonEmptyStr
    """Unique id of the regression within the registry."""
    status: Status = "ACTIVE"
    """``ACTIVE`` (audited and verified), ``EXEMPT`` (listed only), ``RETIRED``."""
    retirement: NonEmptyStr | Details | None = None
    """Why and when the regression was retired; required with ``RETIRED``."""
    reason: NonEmptyStr | None = None
    """Why the regression is ``EXEMPT``; required with it."""
    owner: NonEmptyStr | None = None
    """Who owns the exemption; required with ``EXEMPT``."""
    expires: NonEmptyStr | None = None
    """When the exemption ends (ISO date, lasting through that day, or datetime); required
    with ``EXEMPT``. Once past, the record is ``ACTIVE`` again."""
    retained_case: NonEmptyStr
    """Name of the guard case that must stay in the retained fixture."""
    retained_fixture: NonEmptyStr = DEFAULT_RETAINED_FIXTURE
    """The fixture holding the guard, relative to the registry's folder."""
    claim_ids: list[NonEmptyStr] | None = None
    """Capability claims the regression threatens."""
    claims_threatened: list[NonEmptyStr] | None = None
    """Alias of ``claim_ids`` (loads with a warning)."""
    seam_ids: list[NonEmptyStr] | None = None
    """Seams the regression entered through."""
    seams: list[NonEmptyStr] | None = None
    """Alias of ``seam_ids`` (loads with a warning)."""
    evidence_class: EvidenceClass | None = None
    """Evidence class of the guard; a live class makes an old proof stale."""
    failure_code: NonEmptyStr | None = None
    """The code the guard fails with; a proof's output showing it proves the guard's reason."""
    last_proven: IsoDate | None = None
    """When the fail-before-fix proof last failed for the guard's reason (ISO date)."""
    incident: NonEmptyStr | Details | None = None
    """The incident: an id or reference, or an object (``id``, ``issue``, ``date``, ...)."""
    fail_before_fix: FailBeforeFix | None = None
    """The proof that the guard fails against the broken behaviour."""
    verification: Verification | None = None
    """Written by ``regressions verify --write``: what ``last_proven`` rests on."""
    repair_revision: str | None = None
    """The fix: a commit, tag or issue."""
    first_added: IsoDate | None = None
    """When the regression was recorded."""
    notes: str | None = None
    """Free text."""

    @property
    def claims(self) -> list[str]:
        """The threatened claims, from ``claim_ids`` or its alias."""
        return list(self.claim_ids or self.claims_threatened or [])

    @property
    def seam_list(self) -> list[str]:
        """The seams, from ``seam_ids`` or its alias."""
        return list(self.seam_ids or self.seams or [])

    @property
    def proven_on(self) -> str | None:
        """``last_proven``, from the record or (alias) from ``fail_before_fix``."""
        if self.last_proven is not None:
            return self.last_proven
        return self.fail_before_fix.last_proven if self.fail_before_fix else None

    @property
    def proof_form(self) -> ProofForm | None:
        """The form of the record's proof; ``None`` when it has none."""
        return self.fail_before_fix.form if self.fail_before_fix else None

    @property
    def proof_command(self) -> list[str]:
        """The proof's argv; empty when the record has none."""
        proof = self.fail_before_fix
        return list(proof.proof_command or []) if proof else []


class RegressionRegistry(InputModel):
    """A skill's regression registry, ``fixtures/regressions.json``."""

    schema_: Literal["agentic_evals.regressions.v1"] = Field(alias="schema")
    """Registry format: ``agentic_evals.regressions.v1``."""
    version: int | None = None
    """Revision of this registry, if the skill keeps one."""
    skill: NonEmptyStr | None = None
    """The skill the registry belongs to."""
    note: str | None = None
    """Free text."""
    incidents: list[Incident] = []
    """Incidents the skill declares; open ones that no regression maps are reported."""
    regressions: list[Regression]
    """The regression records, each with a unique ``regression_id``."""
