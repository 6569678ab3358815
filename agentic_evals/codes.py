"""Stable finding and problem codes.

Wording may change; codes never do, and a retired code is never reused. The
rule each code enforces is worded once, in the message of the finding that
names it (and in ``docs/``).
"""

from __future__ import annotations

from typing import Final

# Load-time findings (fixture and other input documents).
SCHEMA_TYPE: Final = "AE-SCHEMA-TYPE"
SCHEMA_REQUIRED: Final = "AE-SCHEMA-REQUIRED"
SCHEMA_DUPLICATE: Final = "AE-SCHEMA-DUPLICATE"
SCHEMA_UNKNOWN: Final = "AE-SCHEMA-UNKNOWN"
SCHEMA_VALUE: Final = "AE-SCHEMA-VALUE"
SCHEMA_VERSION: Final = "AE-SCHEMA-VERSION"
SCHEMA_SYNTAX: Final = "AE-SCHEMA-SYNTAX"
SCHEMA_REFERENCE: Final = "AE-SCHEMA-REFERENCE"
SCHEMA_CONFLICT: Final = "AE-SCHEMA-CONFLICT"
SCHEMA_CLAIM: Final = "AE-SCHEMA-CLAIM"
SCHEMA_MUST_EXERCISE: Final = "AE-SCHEMA-MUST-EXERCISE"
FILE_UNREADABLE: Final = "AE-FILE-UNREADABLE"
PATH_ESCAPE: Final = "AE-PATH-ESCAPE"

SLOP_TRIALS: Final = "AE-SLOP-TRIALS"
SLOP_NO_NEGATIVE: Final = "AE-SLOP-NO-NEGATIVE"
SLOP_NO_REAL_WORLD: Final = "AE-SLOP-NO-REAL-WORLD"
SLOP_TRIVIAL: Final = "AE-SLOP-TRIVIAL"
COMP_MAJORITY: Final = "AE-COMP-MAJORITY"
COMP_NONDETERMINISTIC: Final = "AE-COMP-NONDETERMINISTIC"
COMP_SAMPLES: Final = "AE-COMP-SAMPLES"


# Trial and case problems found while running.
EXIT_CODE: Final = "EXIT_CODE"
STDOUT_MISSING: Final = "STDOUT_MISSING"
STDERR_MISSING: Final = "STDERR_MISSING"
STDOUT_FORBIDDEN: Final = "STDOUT_FORBIDDEN"
STDERR_FORBIDDEN: Final = "STDERR_FORBIDDEN"
STREAM_TRUNCATED: Final = "STREAM_TRUNCATED"
ARTIFACT_MISSING: Final = "ARTIFACT_MISSING"
ARTIFACT_PRESENT: Final = "ARTIFACT_PRESENT"
ARTIFACT_TOO_SMALL: Final = "ARTIFACT_TOO_SMALL"
ARTIFACT_HASH: Final = "ARTIFACT_HASH"
ARTIFACT_NOT_JSON: Final = "ARTIFACT_NOT_JSON"
ARTIFACT_POINTER: Final = "ARTIFACT_POINTER"
ARTIFACT_MISMATCH: Final = "ARTIFACT_MISMATCH"
ARTIFACT_REGEX: Final = "ARTIFACT_REGEX"
ARTIFACT_EXCLUDED: Final = "ARTIFACT_EXCLUDED"
ARTIFACT_NO_MATCH: Final = "ARTIFACT_NO_MATCH"
ARTIFACT_UNSAFE_PATH: Final = "ARTIFACT_UNSAFE_PATH"
TIMEOUT: Final = "TIMEOUT"
ORPHAN_PROCESS: Final = "ORPHAN_PROCESS"
EXEC_FAILED: Final = "EXEC_FAILED"
BLOCKED_MARKER: Final = "BLOCKED_MARKER"
INFRA_BLOCKED: Final = "INFRA_BLOCKED"
NOT_EXERCISED: Final = "NOT_EXERCISED"
TRACE_UNAVAILABLE: Final = "TRACE_UNAVAILABLE"
INTERRUPTED: Final = "INTERRUPTED"
MISSING_SYSTEM_TEST: Final = "MISSING_SYSTEM_TEST"
ARTIFACT_TOO_LARGE: Final = "ARTIFACT_TOO_LARGE"
ARTIFACT_UNREADABLE: Final = "ARTIFACT_UNREADABLE"
WORKSPACE_UNAVAILABLE: Final = "WORKSPACE_UNAVAILABLE"
WORKSPACE_CHANGE_MISSING: Final = "WORKSPACE_CHANGE_MISSING"
WORKSPACE_CHANGE_UNEXPECTED: Final = "WORKSPACE_CHANGE_UNEXPECTED"
LIMIT_EXCEEDED: Final = "LIMIT_EXCEEDED"
ISOLATION_UNAVAILABLE: Final = "ISOLATION_UNAVAILABLE"

PROBLEM_CODES: Final = frozenset(
    {
        EXIT_CODE,
        STDOUT_MISSING,
        STDERR_MISSING,
        STDOUT_FORBIDDEN,
        STDERR_FORBIDDEN,
        STREAM_TRUNCATED,
        ARTIFACT_MISSING,
        ARTIFACT_PRESENT,
        ARTIFACT_TOO_SMALL,
        ARTIFACT_HASH,
        ARTIFACT_NOT_JSON,
        ARTIFACT_POINTER,
        ARTIFACT_MISMATCH,
        ARTIFACT_REGEX,
        ARTIFACT_EXCLUDED,
        ARTIFACT_NO_MATCH,
        ARTIFACT_UNSAFE_PATH,
        TIMEOUT,
        ORPHAN_PROCESS,
        EXEC_FAILED,
        BLOCKED_MARKER,
        INFRA_BLOCKED,
        NOT_EXERCISED,
        TRACE_UNAVAILABLE,
        INTERRUPTED,
        MISSING_SYSTEM_TEST,
        ARTIFACT_TOO_LARGE,
        ARTIFACT_UNREADABLE,
        WORKSPACE_UNAVAILABLE,
        WORKSPACE_CHANGE_MISSING,
        WORKSPACE_CHANGE_UNEXPECTED,
    }
)
"""Every code a trial or case problem can carry (a regression's ``failure_code`` may name one)."""

# Skill-tree audit rules (`audit-skills`, SPEC section 9).
EVAL_NO_POSTURE: Final = "EVAL001"
EVAL_NOT_COMPOSED: Final = "EVAL002"
EVAL_FRONT_MATTER: Final = "EVAL003"
EVAL_FENCED_FRONT_MATTER: Final = "EVAL004"
EVAL_FIXTURE_INVALID: Final = "EVAL005"
EVAL_FIXTURE_GATED: Final = "EVAL006"
EVAL_SCAFFOLD_ONLY: Final = "EVAL007"
EVAL_LEGACY_FIXTURE: Final = "EVAL008"

EVAL_CODES: Final = (
    EVAL_NO_POSTURE,
    EVAL_NOT_COMPOSED,
    EVAL_FRONT_MATTER,
    EVAL_FENCED_FRONT_MATTER,
    EVAL_FIXTURE_INVALID,
    EVAL_FIXTURE_GATED,
    EVAL_SCAFFOLD_ONLY,
    EVAL_LEGACY_FIXTURE,
)
"""The audit's rules, in the order its summary counts them."""

# Journey planning (`plan-journeys`, SPEC section 9).
JOURNEY_SELECTOR: Final = "AE-JOURNEY-SELECTOR"
JOURNEY_REFERENCE: Final = "AE-JOURNEY-REFERENCE"
JOURNEY_UNKNOWN_CLAIM: Final = "AE-JOURNEY-UNKNOWN-CLAIM"
JOURNEY_UNKNOWN_SEAM: Final = "AE-JOURNEY-UNKNOWN-SEAM"
JOURNEY_UNOBSERVED: Final = "AE-JOURNEY-UNOBSERVED"


# Capability claims (SPEC sections 4 to 6): load-time findings.
CLAIM_REPRESENTATION: Final = "AE-CLAIM-REPRESENTATION"
CLAIM_SEAM: Final = "AE-CLAIM-SEAM"
CLAIM_EXEMPTION: Final = "AE-CLAIM-EXEMPTION"
CLAIM_ADMISSION: Final = "AE-CLAIM-ADMISSION"


# Why a case declaring a live class was downgraded (case `evidence_disqualifiers`).
LIVE_MOCKED: Final = "LIVE_MOCKED"
LIVE_USES_STUB: Final = "LIVE_USES_STUB"
LIVE_STUB_INPUT: Final = "LIVE_STUB_INPUT"
LIVE_NO_ENTRYPOINT: Final = "LIVE_NO_ENTRYPOINT"
LIVE_NO_READBACK: Final = "LIVE_NO_READBACK"
LIVE_ASK_NOT_EXECUTED: Final = "LIVE_ASK_NOT_EXECUTED"
LIVE_ASK_NO_RUN_ARTIFACT: Final = "LIVE_ASK_NO_RUN_ARTIFACT"


# Why a supporting case cannot fill a claim's slot (capability_readiness evidence).
NOT_REQUIRED_CASE: Final = "NOT_REQUIRED_CASE"
NOT_ADMITTED: Final = "NOT_ADMITTED"
TEST_SOURCE_CHANGED: Final = "TEST_SOURCE_CHANGED"
ORACLE_CHANGED: Final = "ORACLE_CHANGED"
SHARED_LIVE_CASE: Final = "SHARED_LIVE_CASE"

# Why an exemption is ignored at run time.
EXEMPTION_EXPIRED: Final = "EXPIRED"
EXEMPTION_INCOMPLETE: Final = "INCOMPLETE"
EXEMPTION_BAD_EXPIRES: Final = "INVALID_EXPIRES"
EXEMPTION_CLASS_NOT_REQUIRED: Final = "CLASS_NOT_REQUIRED"

# Seam coverage audit (`coverage show|audit`, SPEC section 7).
COV_FIXTURE_REJECTED: Final = "AE-COV-FIXTURE-REJECTED"
COV_FIXTURE_UNREADABLE: Final = "AE-COV-FIXTURE-UNREADABLE"
COV_CASE_UNREADABLE: Final = "AE-COV-CASE-UNREADABLE"
COV_SEAM_UNREADABLE: Final = "AE-COV-SEAM-UNREADABLE"
COV_SEAM_CONFLICT: Final = "AE-COV-SEAM-CONFLICT"
COV_UNDECLARED_SEAM: Final = "AE-COV-UNDECLARED-SEAM"
COV_SEAM_TYPE_MISSING: Final = "AE-COV-SEAM-TYPE-MISSING"
COV_SEAM_TYPE_UNKNOWN: Final = "AE-COV-SEAM-TYPE-UNKNOWN"
COV_CRITICALITY: Final = "AE-COV-CRITICALITY"
COV_REQUIRED_EVIDENCE: Final = "AE-COV-REQUIRED-EVIDENCE"
COV_VALUE_SEAM: Final = "AE-COV-VALUE-SEAM"
COV_REGISTRY: Final = "AE-COV-REGISTRY"
COV_REGRESSION_SEAM: Final = "AE-COV-REGRESSION-SEAM"
COV_UNCOVERED_SEAM: Final = "AE-COV-UNCOVERED-SEAM"


# Why a case that lists a seam cannot guard it (coverage `weak_cases`).
NO_FAILING_ORACLE: Final = "NO_FAILING_ORACLE"

# Regression registries (`regressions show|audit|verify`, SPEC section 8): load-time findings.
REG_ALIAS: Final = "AE-REG-ALIAS"
REG_RETIREMENT: Final = "AE-REG-RETIREMENT"
REG_FOREIGN: Final = "AE-REG-FOREIGN"
REG_GENERIC_CODE: Final = "AE-REG-GENERIC-CODE"
REG_FAILURE_CODE: Final = "AE-REG-FAILURE-CODE"
REG_PROOF_FORM: Final = "AE-REG-PROOF-FORM"
REG_EXEMPTION: Final = "AE-REG-EXEMPTION"


# Issues of one regression in `regressions show|audit` rows.
REG_UNPROTECTED: Final = "UNPROTECTED"
REG_NEVER_PROVEN: Final = "NEVER_PROVEN"
REG_STALE_LIVE_PROOF: Final = "STALE_LIVE_PROOF"
REG_WEAK_PROOF: Final = "WEAK_PROOF"
REG_RETIRED: Final = "RETIRED"
REG_EXEMPT: Final = "EXEMPT"
REG_EXEMPTION_EXPIRED: Final = "EXEMPTION_EXPIRED"
REG_UNVERIFIED_LAST_PROVEN: Final = "UNVERIFIED_LAST_PROVEN"
REG_PROOF_STALE: Final = "PROOF_STALE"

# Why `regressions verify` (and `add`) did not verify a record.
REG_PROOF_NOT_APPLICABLE: Final = "PROOF_NOT_APPLICABLE"
REG_NO_PROOF: Final = "NO_PROOF"
REG_GUARD_MISSING: Final = "GUARD_MISSING"
REG_GUARD_NOT_CAUGHT: Final = "GUARD_NOT_CAUGHT"
REG_GUARD_OTHER_FAILURE: Final = "GUARD_OTHER_FAILURE"
REG_GUARD_FAILS_NOW: Final = "GUARD_FAILS_NOW"
REG_PROOF_FAILED: Final = "PROOF_FAILED"
REG_NOT_RUN: Final = "NOT_RUN"
UNMAPPED_INCIDENT: Final = "UNMAPPED_INCIDENT"
"""An open incident that no regression maps (a finding of ``regressions show|audit``)."""


RULE_TEXTS: Final[dict[str, str]] = {
    SCHEMA_TYPE: "a value has the wrong JSON type",
    SCHEMA_REQUIRED: "a required field is missing",
    SCHEMA_DUPLICATE: "keys and case names must be unique",
    SCHEMA_UNKNOWN: "unknown key (a warning; an error under --strict)",
    SCHEMA_VALUE: "a value is outside what the field allows",
    SCHEMA_VERSION: "the document's format version must be one this tool reads",
    SCHEMA_SYNTAX: "the document must be well-formed JSON or YAML",
    SCHEMA_REFERENCE: "a reference must name something the document declares",
    SCHEMA_CONFLICT: "these fields cannot be combined",
    SCHEMA_CLAIM: "capability claims must say what kind of claim they are",
    SCHEMA_MUST_EXERCISE: "each must_exercise entry must appear in the command",
    FILE_UNREADABLE: "the file must exist and be readable",
    PATH_ESCAPE: "paths must stay inside the fixture directory or workspace",
    SLOP_TRIALS: "a single trial is not evidence: trials must be at least 2",
    SLOP_NO_NEGATIVE: "an all-positive fixture is self-serving: add a negative or adversarial case",
    SLOP_NO_REAL_WORLD: "at least one real_world case must exercise a live path without stubs",
    SLOP_TRIVIAL: "a trivial command proves nothing",
    COMP_MAJORITY: "compliance tier: more than half of the cases must be adversarial or negative",
    COMP_NONDETERMINISTIC: "compliance tier: at least one case must sample fresh inputs per run",
    COMP_SAMPLES: "compliance tier: every non-deterministic case must name --samples >= 50",
    EXIT_CODE: "the command must end with the expected exit code",
    STDOUT_MISSING: "stdout must contain every stdout_contains string",
    STDERR_MISSING: "stderr must contain every stderr_contains string",
    STDOUT_FORBIDDEN: "stdout must not contain any stdout_excludes string",
    STDERR_FORBIDDEN: "stderr must not contain any stderr_excludes string",
    STREAM_TRUNCATED: "an excludes check on a stream cut at its cap fails closed",
    ARTIFACT_MISSING: "the artifact must exist",
    ARTIFACT_PRESENT: "the artifact must be absent",
    ARTIFACT_TOO_SMALL: "the artifact must hold at least min_bytes bytes",
    ARTIFACT_HASH: "the artifact's sha256 must match",
    ARTIFACT_NOT_JSON: "the artifact must be valid JSON",
    ARTIFACT_POINTER: "the JSON pointer must resolve in the artifact",
    ARTIFACT_MISMATCH: "the value at the pointer must equal the expected value",
    ARTIFACT_REGEX: "the artifact's content must match content_regex",
    ARTIFACT_EXCLUDED: "the artifact's content must not contain content_excludes",
    ARTIFACT_NO_MATCH: "an artifact glob must match at least one path",
    ARTIFACT_UNSAFE_PATH: "artifact paths must stay inside the fixture directory or workspace",
    TIMEOUT: "the command must end within its timeout",
    ORPHAN_PROCESS: "the command must leave no process running",
    EXEC_FAILED: "the program must start",
    BLOCKED_MARKER: "a blocked marker in the output makes the trial BLOCKED",
    INFRA_BLOCKED: "an infrastructure marker makes a failing trial INFRA_BLOCKED",
    NOT_EXERCISED: "every must_exercise contract must be executed during the trial",
    TRACE_UNAVAILABLE: "must_exercise needs an exec tracer",
    INTERRUPTED: "a case must run all its trials",
    MISSING_SYSTEM_TEST: "a case required up to system_test must pass at that tier",
    ARTIFACT_TOO_LARGE: "an artifact read for its content must fit the read limit",
    ARTIFACT_UNREADABLE: "an artifact read for its content must be readable",
    WORKSPACE_UNAVAILABLE: "a trial's workspace copy must be made",
    WORKSPACE_CHANGE_MISSING: "every workspace_changes pattern must match a change",
    WORKSPACE_CHANGE_UNEXPECTED: "with only: true, every change must match a pattern",
    EVAL_NO_POSTURE: "a skill with a runtime surface (run.sh, sanity.sh) needs an eval posture",
    EVAL_NOT_COMPOSED: "a skill should list agentic-evals in its front matter's composes",
    EVAL_FRONT_MATTER: "SKILL.md must start with well-formed YAML front matter",
    EVAL_FENCED_FRONT_MATTER: "front matter inside a code fence is read, but is not standard",
    EVAL_FIXTURE_INVALID: "every eval fixture of the skill must load",
    EVAL_FIXTURE_GATED: "every eval fixture of the skill must pass the load-time gates",
    EVAL_SCAFFOLD_ONLY: "a scaffold fixture is a first step: strengthen it into a real evaluation",
    EVAL_LEGACY_FIXTURE: "a version 1 fixtures/eval.json is not run by agentic-evals: migrate it",
    JOURNEY_SELECTOR: "controls are named by stable QID only; selector fallbacks are rejected",
    JOURNEY_REFERENCE: "a state graph transition must join declared states",
    JOURNEY_UNKNOWN_CLAIM: "a requirement's claim_ids should name the fixture's capability claims",
    JOURNEY_UNKNOWN_SEAM: "a requirement's seam_ids should name the fixture's seams",
    JOURNEY_UNOBSERVED: "a state graph transition should use a control the inventory observed",
    CLAIM_REPRESENTATION: "a case's representation must be one of its value-bearing claim's matrix",
    CLAIM_SEAM: "a value-bearing claim needs a critical seam of type value-representation",
    CLAIM_EXEMPTION: "an exemption needs evidence_class, reason_code, justification, owner and "
    "a date in expires; an incomplete one is ignored at run time",
    CLAIM_ADMISSION: "admitted evidence must pin a hash of a case that supports the claim",
    COV_FIXTURE_REJECTED: "the fixture does not load; coverage analyses the document as written",
    COV_FIXTURE_UNREADABLE: "a fixture that cannot be parsed hides its seams: no READY verdict",
    COV_CASE_UNREADABLE: "a case the models reject cannot run, so it guards nothing",
    COV_SEAM_UNREADABLE: "a seam needs a non-empty string seam_id",
    COV_SEAM_CONFLICT: "a seam declared in several fixtures should be declared the same way",
    COV_UNDECLARED_SEAM: "a case's seams should name declared seams",
    COV_SEAM_TYPE_MISSING: "a seam should declare its seam_type",
    COV_SEAM_TYPE_UNKNOWN: "seam_type is outside the documented vocabulary",
    COV_CRITICALITY: "a seam's criticality should be critical, important or optional",
    COV_REQUIRED_EVIDENCE: "required_evidence must name at least one of the six evidence classes",
    COV_VALUE_SEAM: "a value-bearing claim needs a critical seam of type value-representation",
    COV_REGISTRY: "the regressions registry must be readable, with a regression_id per record",
    COV_REGRESSION_SEAM: "a regression's seam ids should name declared seams",
    COV_UNCOVERED_SEAM: "a seam needs a capable guard (an oracle that can fail) in every "
    "required evidence class",
    REG_ALIAS: "an alias key (claims_threatened, seams, fail_before_fix.last_proven) loads with "
    "a warning: write claim_ids, seam_ids, last_proven",
    REG_RETIREMENT: "a RETIRED regression must say why in retirement",
    REG_FOREIGN: "the file is not an agentic_evals.regressions.v1 registry",
    REG_UNPROTECTED: "an ACTIVE regression's retained case must stay in a fixture that loads",
    REG_NEVER_PROVEN: "an ACTIVE regression needs a fail-before-fix proof with last_proven",
    REG_STALE_LIVE_PROOF: "a live-class guard must be proven within the freshness window",
    REG_WEAK_PROOF: "a free-form proof_command is at most weak: give a patch, git_ref or "
    "mutation proof that runs the guard",
    REG_RETIRED: "a RETIRED regression is listed, not audited",
    REG_EXEMPT: "an EXEMPT regression is listed, not audited, until its exemption expires",
    REG_GENERIC_CODE: "a failure_code must name the guard's reason, not what any failure shows",
    REG_FAILURE_CODE: "a structural proof needs a failure_code that is a problem code or an "
    "oracle pointer",
    REG_PROOF_FORM: "a proof takes one structural form, expects the guard to fail, changes "
    "something and names a full commit",
    REG_EXEMPTION: "an EXEMPT regression needs reason, owner and a readable expires",
    REG_EXEMPTION_EXPIRED: "an expired exemption makes the regression ACTIVE again",
    REG_UNVERIFIED_LAST_PROVEN: "last_proven must be backed by the verification record "
    "regressions verify --write writes",
    REG_PROOF_STALE: "a proof holds only for the proof and the retained case it verified",
    REG_PROOF_NOT_APPLICABLE: "a structural proof must apply to the skill as it is",
    REG_NO_PROOF: "an ACTIVE regression needs a fail-before-fix proof",
    REG_GUARD_MISSING: "the retained case must be in a retained fixture that loads",
    REG_GUARD_NOT_CAUGHT: "the guard must fail on the tree with the bug put back",
    REG_GUARD_OTHER_FAILURE: "the guard must fail with the record's failure_code in every trial",
    REG_GUARD_FAILS_NOW: "the guard must pass on the skill as it is",
    REG_PROOF_FAILED: "a proof_command must fail showing its failure_code or markers",
    REG_NOT_RUN: "an interrupted verification proves nothing",
    UNMAPPED_INCIDENT: "an open incident must be mapped by a regression",
}
"""The rule of every code a finding or a trial problem can carry, in general words."""


def rule_text(code: str) -> str | None:
    """The rule ``code`` enforces, in words; None for a code that is no finding or problem."""
    return RULE_TEXTS.get(code)
