"""What a verification rests on: the proof's hash and the retained case's hashes.

``verify --write`` records both; ``show`` recomputes them from the files as
they are now, and a verification whose hashes no longer match proves nothing
about the current guard (``PROOF_STALE``). The proof's hash is the sha256 of
the patch file's bytes, of the commit id, or of the mutation's canonical JSON;
the case's are its evidence identity (SPEC section 4:
``test_source_sha256``, ``oracle_sha256``).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from agentic_evals.judge.provenance import canonical_json, oracle_sha256, sha256_bytes
from agentic_evals.judge.provenance import source_sha256 as test_source_sha256
from agentic_evals.regressions.models import Regression
from agentic_evals.regressions.protection import FixtureCache, retained_fixture_path


class CaseIdentity(NamedTuple):
    """The retained case's evidence identity."""

    test_source_sha256: str
    oracle_sha256: str


def patch_path(record: Regression, registry_dir: Path) -> Path | None:
    """The record's patch file (relative to the registry's folder), if its proof is a patch."""
    proof = record.fail_before_fix
    return registry_dir / proof.patch if proof and proof.patch else None


def proof_sha256(record: Regression, registry_dir: Path) -> str | None:
    """The hash of the record's structural proof as it is now; ``None`` when it has none.

    Raises:
        OSError: the patch file cannot be read.
    """
    proof = record.fail_before_fix
    if proof is None:
        return None
    patch = patch_path(record, registry_dir)
    if patch is not None:
        return sha256_bytes(patch.read_bytes())
    if proof.git_ref is not None:
        return sha256_bytes(proof.git_ref.encode("ascii"))
    if proof.mutation is not None:
        return sha256_bytes(canonical_json(proof.mutation.model_dump(mode="json")))
    return None


def raw_case(document: object, name: str) -> dict[str, object] | None:
    """The case called ``name`` of a parsed fixture, as written."""
    cases = document.get("cases") if isinstance(document, dict) else None
    for case in cases if isinstance(cases, list) else []:
        if isinstance(case, dict) and case.get("name") == name:
            return case
    return None


def case_identity(
    record: Regression, registry_dir: Path, cache: FixtureCache
) -> CaseIdentity | None:
    """The retained case's hashes now; ``None`` when its fixture does not load or lacks it."""
    loaded = cache.get(retained_fixture_path(record, registry_dir))
    if loaded is None or loaded.model is None:
        return None
    case = raw_case(loaded.document, record.retained_case)
    if case is None:
        return None
    return CaseIdentity(test_source_sha256(case), oracle_sha256(case))
