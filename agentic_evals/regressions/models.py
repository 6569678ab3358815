"""Typed models of a regression registry (``agentic_evals.regressions.v1``, SPEC section 8).

``fixtures/regressions.json`` ties each incident to a retained guard case and
an executable fail-before-fix proof. These models are the source of
``schemas/regressions.schema.json`` (``scripts/gen_schemas.py``). Unknown keys
are kept (``extra``) so that the loader warns about them instead of failing:
real registries carry prose such as ``rationale`` or ``fail_before_fix.expected``.
The aliases real registries use (``claims_threatened``, ``seams``,
``fail_before_fix.last_proven``) are fields of their own here, so the schema
accepts them; the loader warns about each and the properties below resolve them.
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
NonEmptyStr = Annotated[str, Field(min_length=1)]
IsoDate = Annotated[str, Field(pattern=DATE_PATTERN)]
Details = Annotated[dict[str, JsonValue], Field(min_length=1)]


class FailBeforeFix(InputModel):
    """The executable proof that the guard fails against the broken behaviour."""

    proof_command: Annotated[list[NonEmptyStr], Field(min_length=1)] | None = None
    """Program and arguments, run without a shell (write ``["bash", "-c", ...]`` for one)."""
    expected_fail: bool = True
    """``true``: the proof must exit non-zero; ``false``: it must exit 0."""
    expected_markers: list[NonEmptyStr] = []
    """Strings that must all appear in the proof's stdout or stderr: the guard's reason."""
    cwd: NonEmptyStr | None = None
    """Working directory, relative to the skill folder (default: the skill folder)."""
    last_proven: IsoDate | None = None
    """Alias of the record's ``last_proven`` (loads with a warning)."""


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
    """The executable proof that the guard fails against the broken behaviour."""
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
