"""Property tests of the registry loader: any mutation yields findings, never a crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from jsonpointer import resolve_pointer
from regression_helpers import record, registry

from agentic_evals.regressions.load import load_registry

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(
    [
        "regression_id",
        "status",
        "retirement",
        "retained_case",
        "retained_fixture",
        "claim_ids",
        "claims_threatened",
        "seams",
        "evidence_class",
        "last_proven",
        "incident",
        "fail_before_fix",
        "failure_code",
        "reason",
        "owner",
        "expires",
        "verification",
        "unknown_key",
    ]
)
PROOF_KEYS = st.sampled_from(
    [
        "proof_command",
        "patch",
        "git_ref",
        "mutation",
        "expected_fail",
        "expected_markers",
        "cwd",
        "last_proven",
        "expected",
    ]
)


def base() -> dict[str, Any]:
    return registry(
        record("a"),
        record("b", status="RETIRED", retirement="gone"),
        incidents=[{"id": "i", "status": "open"}],
    )


@given(
    index=st.integers(min_value=0, max_value=1),
    key=KEYS,
    proof_key=PROOF_KEYS,
    value=JSON,
    in_proof=st.booleans(),
)
def test_any_mutation_loads_or_is_located(
    tmp_path_factory: Any, index: int, key: str, proof_key: str, value: object, in_proof: bool
) -> None:
    document = base()
    target = document["regressions"][index]
    if in_proof:
        target["fail_before_fix"][proof_key] = value
    else:
        target[key] = value
    path: Path = tmp_path_factory.mktemp("registry") / "regressions.json"
    path.write_text(json.dumps(document))
    loaded = load_registry(path)
    assert (loaded.model is None) == bool(loaded.errors)
    for finding in loaded.findings:
        resolve_pointer(document, finding.pointer)  # every pointer resolves
        assert finding.file == str(path)


@given(top=st.dictionaries(st.sampled_from(["schema", "regressions", "incidents", "x"]), JSON))
def test_any_top_level_shape_never_crashes(tmp_path_factory: Any, top: dict[str, Any]) -> None:
    path: Path = tmp_path_factory.mktemp("registry") / "regressions.json"
    path.write_text(json.dumps(top))
    loaded = load_registry(path)
    assert loaded.model is None or not loaded.errors
    for finding in loaded.findings:
        resolve_pointer(top, finding.pointer)
