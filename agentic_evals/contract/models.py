"""Typed models of the fixture document.

These models are the source of truth: ``schemas/fixture.schema.json`` is
generated from them (``scripts/gen_schemas.py``) and a test fails when the
committed schema and the models disagree. Unknown keys are kept (``extra``)
so that the loader can warn about them instead of failing.
"""

from typing import Annotated, ClassVar, Literal

from pydantic import Field, JsonValue

from agentic_evals.contract.claims import CapabilityClaim, ProofClaims, Seam
from agentic_evals.contract.isolation import IsolationSettings
from agentic_evals.contract.placeholders import PARAMETER_PATTERN
from agentic_evals.contract.vocabulary import (
    ArtifactComparison,
    CaseType,
    EvalKind,
    EvidenceClass,
    QualificationTier,
)
from agentic_evals.documents.base import InputModel, TimeoutSeconds

NonEmptyStr = Annotated[str, Field(min_length=1)]


class ArtifactRef(InputModel):
    """Another artifact to compare against: a JSON value in it, or its whole content."""

    path: NonEmptyStr
    """Artifact path, relative to the artifact root (or starting with a built-in placeholder)."""
    json_pointer: str = ""
    """RFC 6901 pointer into that artifact (``compare: json`` only); empty means the whole
    document."""
    compare: ArtifactComparison = "json"
    """``json``: the values at the two pointers are equal JSON; ``bytes``: the two files are
    byte-identical; ``text``: their UTF-8 texts are equal once line endings are normalised."""


class ArtifactCheck(InputModel):
    """One check on a file the trial left behind."""

    path: NonEmptyStr | None = None
    """Artifact path, relative to the fixture directory or the workspace."""
    glob: NonEmptyStr | None = None
    """Glob instead of ``path``: every match must satisfy the check; no match fails."""
    absent: bool | None = None
    """``true``: the path must not exist."""
    exists: bool | None = None
    """``true``: the path must exist; ``false``: it must not."""
    min_bytes: Annotated[int, Field(ge=0)] | None = None
    """The file holds at least this many bytes."""
    sha256: Annotated[str, Field(pattern=r"^(sha256:)?[0-9a-fA-F]{64}$")] | None = None
    """Expected content hash, ``sha256:<hex>`` or bare hex."""
    json_pointer: str | None = None
    """RFC 6901 pointer into the artifact parsed as JSON."""
    equals: JsonValue = None
    """The value at ``json_pointer`` equals this JSON value (``1`` is not ``true``)."""
    equals_artifact: ArtifactRef | None = None
    """The value at ``json_pointer`` equals the value in another artifact."""
    is_artifact: bool | None = None
    """``true``: the pointer resolves in the artifact; ``false``: it must not resolve."""
    content_regex: str | None = None
    """A regular expression that must match somewhere in the content."""
    content_excludes: str | None = None
    """A string that must not occur in the content."""


class WorkspaceChanges(InputModel):
    """Assertions on what a trial changed in its workspace.

    Patterns are globs on the path relative to the workspace, in POSIX form
    (``fnmatch`` per segment, ``**`` spans directories). Every pattern must
    match at least one path of its category.
    """

    added: list[str] = Field(default_factory=list)
    """Globs each matching at least one path the trial created."""
    changed: list[str] = Field(default_factory=list)
    """Globs each matching at least one path whose type, size or content changed."""
    removed: list[str] = Field(default_factory=list)
    """Globs each matching at least one path the trial deleted."""
    only: bool = False
    """``true``: every change must be matched by a pattern of its category."""


class Expected(InputModel):
    """The oracles of a case."""

    unknown_keys_fatal: ClassVar[bool] = True
    """A key that names no oracle is a load error, even without ``--strict``: a misspelled
    oracle (``stdout_contain``) would otherwise check nothing."""

    exit_code: int
    """The exit code the command must end with."""
    stdout_contains: list[str] = Field(default_factory=list)
    """Strings that must occur in stdout."""
    stderr_contains: list[str] = Field(default_factory=list)
    """Strings that must occur in stderr."""
    stdout_excludes: list[str] = Field(default_factory=list)
    """Strings that must not occur in stdout."""
    stderr_excludes: list[str] = Field(default_factory=list)
    """Strings that must not occur in stderr."""
    stdout_regex: list[str] = Field(default_factory=list)
    """Regular expressions (RE2 syntax, searched in linear time) that must each match in
    stdout; a match of at most 1 MiB is found anywhere in the stream, past the capture cap
    too."""
    stderr_regex: list[str] = Field(default_factory=list)
    """Regular expressions (RE2 syntax) that must each match in stderr, as ``stdout_regex``."""
    artifacts: list[ArtifactCheck] = Field(default_factory=list)
    """Checks on files the trial left behind."""
    workspace_changes: WorkspaceChanges | None = None
    """Assertions on workspace changes."""


class Workspace(InputModel):
    """Isolation: each trial runs in a fresh copy of ``input``."""

    input: NonEmptyStr
    """Directory copied for every trial, relative to the fixture directory."""


class Qualification(InputModel):
    """Qualification tier a case must reach."""

    required_up_to: QualificationTier = "not_required"
    """The highest tier this case must pass at."""
    required_for: list[str] = Field(default_factory=list)
    """Labels of what needs this qualification."""


class ThreatAssumption(InputModel):
    """The threat an adversarial case models."""

    model: NonEmptyStr
    """The threat model in words."""
    subverted_by: Annotated[list[NonEmptyStr], Field(min_length=1)]
    """How the defence could be subverted."""
    adversarial_goal: NonEmptyStr
    """What the adversary wants to achieve."""


class CaseDefaults(InputModel):
    """The fields a case may leave to the fixture's ``defaults``; each case's own value wins."""

    required: bool = True
    """``false`` opts the case out of readiness."""
    real_world: bool = False
    """The author says this case exercises a live path."""
    evidence_class: EvidenceClass | None = None
    """Evidence class; absent declares ``live_e2e``."""
    supports_claims: list[NonEmptyStr] = Field(default_factory=list)
    """Ids of declared capability claims this case supports."""
    seams: list[NonEmptyStr] = Field(default_factory=list)
    """Ids of declared seams this case guards."""
    readback: bool = False
    """The command itself reads state back independently."""
    mocked: bool = False
    """The case feeds itself mocked inputs."""
    uses_stub: bool = False
    """The case feeds itself stub inputs."""
    timeout_seconds: TimeoutSeconds | None = None
    """Per-trial timeout; default from ``--timeout-seconds``."""
    env: dict[str, str] = Field(default_factory=dict)
    """Variables added to the trial environment (a default's variables are merged with the
    case's, the case's value winning)."""
    cwd: NonEmptyStr | None = None
    """Working directory, relative to the skill root when the fixture declares one, else to
    the fixture directory (or to the workspace copy)."""
    must_exercise: list[NonEmptyStr] = Field(default_factory=list)
    """Downstream contracts the case must really run (traced)."""
    blocked_when_stdout_contains: list[str] = Field(default_factory=list)
    """Markers (in stdout or stderr) that make a trial BLOCKED."""
    infra_blocked_when: list[str] = Field(default_factory=list)
    """Markers that make a failing trial INFRA_BLOCKED."""
    qualification: Qualification | None = None
    """The qualification tier the case must reach."""
    threat_assumption: ThreatAssumption | None = None
    """Threat model of an adversarial case."""
    representation: NonEmptyStr | None = None
    """The representation of a value-bearing claim this case covers."""
    workspace: Workspace | None = None
    """Per-case isolation, overriding the fixture's."""


ParameterName = Annotated[str, Field(pattern=PARAMETER_PATTERN)]
Parametrize = Annotated[
    dict[ParameterName, Annotated[list[NonEmptyStr], Field(min_length=1)]],
    # The models refuse a key the pattern does not match; so does the schema.
    Field(min_length=1, json_schema_extra={"additionalProperties": False}),
]
"""Variables of a parametrized case and their values: one case per combination."""


class Case(CaseDefaults, IsolationSettings):
    """One command case, run for several trials (isolation settings override the fixture's)."""

    name: NonEmptyStr
    """Unique name of the case within the fixture (an expanded case adds its values:
    ``name[value]``, ``name[v1,v2]``)."""
    type: CaseType
    """``positive``, ``negative`` or ``adversarial``."""
    command: Annotated[list[str], Field(min_length=1)]
    """The argv, run without a shell."""
    expected: Expected
    """Oracles; ``exit_code`` is required."""
    description: NonEmptyStr | None = None
    """What the case checks, in words, for the fixture's readers (never judged)."""
    parametrize: Parametrize | None = None
    """Expand the case into one case per combination of these variables' values (the cross
    product); ``${VAR}`` is replaced wherever the built-in placeholders are."""


class Fixture(IsolationSettings):
    """A fixture: the declarative evaluation of one skill (format version 2)."""

    version: Literal[2]
    """Format version; must be 2."""
    skill: NonEmptyStr
    """Skill name."""
    cases: Annotated[list[Case], Field(min_length=1)]
    """The cases."""
    trials: Annotated[int, Field(ge=1)] = 3
    """Trials per case."""
    eval_kind: EvalKind = "skill"
    """``runner_selftest`` and ``scaffold`` are honest exemptions from the gates."""
    eval_tier: Literal["compliance"] | None = None
    """``compliance`` adds the strict contract."""
    live: bool | None = None
    """Declared by the author; reported."""
    mocked: bool | None = None
    """Declared by the author; reported."""
    proof_scope: str | None = None
    """What the fixture proves, reported verbatim."""
    claims: ProofClaims | None = None
    """Proof-scope prose, reported verbatim."""
    what_was_exercised: str | None = None
    """Reported verbatim."""
    what_remains_unverified: str | None = None
    """Reported verbatim."""
    capability_claims: list[CapabilityClaim] = Field(default_factory=list)
    """Declared capability claims."""
    seams: list[Seam] = Field(default_factory=list)
    """Declared seams."""
    workspace: Workspace | None = None
    """Isolation for every case: each trial runs in a fresh copy of ``input``."""
    skill_root: NonEmptyStr | None = None
    """The skill's tree, relative to the fixture's folder: entrypoints, stub locations, the
    artifact root and the default cwd derive from it. Absent: the fixture's folder (its
    parent when the folder is named ``fixtures``)."""
    defaults: CaseDefaults | None = None
    """Values merged into every case; a case's own value wins (``env`` merges by variable)."""
