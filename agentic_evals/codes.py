"""Stable finding and problem codes, with the rule each one enforces.

Wording may change; codes never do, and a retired code is never reused.
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

RULES: Final[dict[str, str]] = {
    SCHEMA_TYPE: "a value has the wrong JSON type",
    SCHEMA_REQUIRED: "a required field is missing",
    SCHEMA_DUPLICATE: "keys and case names must be unique",
    SCHEMA_UNKNOWN: "unknown key (a warning; an error under --strict)",
    SCHEMA_VALUE: "a value is outside what the field allows",
    SCHEMA_VERSION: "the fixture format version must be 2",
    SCHEMA_SYNTAX: "the document must be well-formed JSON or YAML",
    SCHEMA_REFERENCE: "a reference must name something the fixture declares",
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
}

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
