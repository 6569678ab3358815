"""Property tests for the loader: any input gives a LoadResult, never an exception,
and every finding's pointer resolves in the document (or names its parent).

Hypothesis runs derandomised under the "ci" settings profile (tests/conftest.py).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import RUN_OK, make_skill
from contract_helpers import BASE_FIXTURE
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonpointer import JsonPointer

from agentic_evals.contract.load import FIXTURE, LoadResult
from agentic_evals.contract.schema import FIXTURE_DOCUMENT
from agentic_evals.documents.pipeline import Loaded, trusted
from agentic_evals.documents.schema import make_validator
from agentic_evals.evidence.gates import load_fixture

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "",
            "..",
            "../..",
            "/abs",
            "fixtures/x.json",
            "$RANDOM",
            "--samples",
            "live_e2e",
            "positive",
            "negative",
            "adversarial",
            "compliance",
            "critical",
            "value_bearing",
            "/a",
            "~2",
            "(",
            "run.sh",
            "bash",
            "-c",
            "2",
        ]
    )
)
JSON = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=25,
)
RICH_FIXTURE: dict[str, Any] = {
    **copy.deepcopy(BASE_FIXTURE),
    "eval_tier": "compliance",
    "capability_claims": [
        {
            "id": "c1",
            "claim_semantics": "value_bearing",
            "domain_profile": "json-scalar-v1",
            "evidence_required": {"live_e2e": True},
            "exemptions": [{"owner": "me"}],
        },
        {"id": "c2", "criticality": "optional", "evidence_required": ["deterministic"]},
    ],
    "seams": [{"seam_id": "s1", "required_evidence": ["live_e2e"], "claim_id": "c1"}],
    "workspace": {"input": "data"},
}
RICH_FIXTURE["cases"] = [
    *copy.deepcopy(BASE_FIXTURE["cases"]),
    {
        "name": "fuzz",
        "type": "adversarial",
        "command": ["bash", "-c", "../run.sh --samples 64 --seed $RANDOM"],
        "supports_claims": ["c1"],
        "seams": ["s1"],
        "must_exercise": ["run.sh"],
        "timeout_seconds": 5,
        "env": {"A": "1"},
        "cwd": "sub",
        "qualification": {"required_up_to": "unit"},
        "threat_assumption": {"model": "m", "subverted_by": ["x"], "adversarial_goal": "g"},
        "expected": {
            "exit_code": 0,
            "artifacts": [
                {"path": "out.json", "json_pointer": "/a", "equals": None},
                {"glob": "*.log", "content_regex": "ok"},
                {"path": "o.json", "json_pointer": "", "equals_artifact": {"path": "p.json"}},
            ],
        },
    },
]


@pytest.fixture(scope="module")
def skill_fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return (
        make_skill(tmp_path_factory.mktemp("props") / "skill", files={**RUN_OK, "fixtures/": None})
        / "fixtures"
    )


def check(result: LoadResult) -> None:
    assert isinstance(result, Loaded)
    if result.model is not None:
        assert result.ok and result.errors == []
    else:
        assert result.errors
    for finding in result.findings:
        if result.document is None:
            assert finding.pointer == ""
            continue
        pointer = JsonPointer(finding.pointer)
        pointer.resolve(result.document)  # raises if the pointer does not resolve


def write(directory: Path, document: Any, fmt: str) -> Path:
    path = directory / f"agentic_eval.{fmt}"
    if fmt == "json":
        path.write_text(json.dumps(document, allow_nan=True), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    return path


@given(document=JSON, fmt=st.sampled_from(["json", "yaml"]))
def test_arbitrary_json_values_never_raise(skill_fixtures: Path, document: Any, fmt: str) -> None:
    check(load_fixture(write(skill_fixtures, document, fmt)))


@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_never_raise(skill_fixtures: Path, data: bytes) -> None:
    path = skill_fixtures / "agentic_eval.yaml"
    path.write_bytes(data)
    check(load_fixture(path))


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths_of(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths_of(child, (*prefix, index))
    return found


def retag(value: Any) -> list[Any]:
    """Values of another JSON type that an author might plausibly write instead."""
    return [str(value), [value], {"value": value}, None, True, 1.0, 0, -1, 2**64]


@st.composite
def mutated_fixtures(draw: st.DrawFn) -> Any:
    document: Any = copy.deepcopy(draw(st.sampled_from([BASE_FIXTURE, RICH_FIXTURE])))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        paths = paths_of(document)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["drop", "replace", "retag", "insert"]))
        if not path:
            document = draw(JSON) if action == "replace" else document
            continue
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if action == "drop":
            del parent[last]
        elif action == "replace":
            parent[last] = draw(JSON)
        elif action == "retag":
            parent[last] = draw(st.sampled_from(retag(parent[last])))
        elif isinstance(parent[last], dict):
            parent[last][draw(st.text(max_size=8))] = draw(JSON)
        elif isinstance(parent[last], list):
            parent[last].append(draw(JSON))
    return document


@settings(max_examples=400)
@given(document=mutated_fixtures(), fmt=st.sampled_from(["json", "yaml"]))
def test_mutated_fixtures_never_raise(skill_fixtures: Path, document: Any, fmt: str) -> None:
    check(load_fixture(write(skill_fixtures, document, fmt)))


def test_the_unmutated_bases_are_schema_valid(skill_fixtures: Path) -> None:
    assert load_fixture(write(skill_fixtures, BASE_FIXTURE, "json")).ok
    rich = load_fixture(write(skill_fixtures, RICH_FIXTURE, "yaml"))
    assert [f.code for f in rich.errors if f.code.startswith("AE-SCHEMA")] == []


FIXTURE_VALIDATOR = make_validator(FIXTURE_DOCUMENT.build())


@given(document=mutated_fixtures())
def test_the_models_fast_path_never_accepts_what_the_schema_rejects(document: Any) -> None:
    # load_fixture skips the jsonschema walk when the strict models accept a
    # document outright; that is only sound while the two agree.
    if trusted(FIXTURE, document) is not None:
        errors = [e.message for e in FIXTURE_VALIDATOR.iter_errors(document)]
        assert errors == []


@given(document=JSON)
def test_the_fast_path_agrees_on_arbitrary_values(document: Any) -> None:
    if trusted(FIXTURE, document) is not None:
        assert not list(FIXTURE_VALIDATOR.iter_errors(document))
