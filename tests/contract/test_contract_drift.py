"""One contract, two forms: the committed schemas equal the generated ones, and the
schema and the models agree on every example fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from agentic_evals.cli.schemas import SCHEMAS, spec
from agentic_evals.contract.models import Fixture
from agentic_evals.contract.schema import FIXTURE_DOCUMENT
from agentic_evals.documents.schema import make_validator
from agentic_evals.documents.schema_gen import DRAFT, SCHEMA_BASE, dump_schema
from agentic_evals.documents.yaml_io import read_document

HERE = Path(__file__).resolve().parent
SCHEMAS_DIR = HERE.parents[1] / "schemas"
SUFFIXES = (".json", ".yaml", ".yml")
VALID = sorted(p for p in (HERE / "valid").iterdir() if p.suffix in SUFFIXES)
INVALID = sorted(
    p for p in (HERE / "invalid").iterdir() if p.suffix in SUFFIXES and p.name != "expect.json"
)
# Documents the schema rejects on purpose while the models accept them: `null` for an
# optional field is a mistake in a hand-written fixture, but the models allow None.
SCHEMA_ONLY = {"null_optional.json"}


def fixture_schema() -> dict[str, object]:
    return FIXTURE_DOCUMENT.build()


@pytest.mark.parametrize("kind", list(SCHEMAS))
def test_committed_schemas_are_regenerated_byte_for_byte(kind: str) -> None:
    document = spec(kind)
    committed = (SCHEMAS_DIR / document.file).read_bytes()
    assert dump_schema(document.build()).encode() == committed, "run scripts/gen_schemas.py"


@pytest.mark.parametrize("kind", list(SCHEMAS))
def test_schemas_declare_draft_and_id(kind: str) -> None:
    document = spec(kind)
    schema = document.build()
    assert schema["$schema"] == DRAFT and schema["$id"] == SCHEMA_BASE + document.file
    assert schema["title"]
    jsonschema.Draft202012Validator.check_schema(schema)


def test_optional_fields_reject_null_but_json_values_keep_it() -> None:
    case: Any = fixture_schema()["$defs"]
    case = case["Case"]["properties"]
    assert case["timeout_seconds"]["type"] == "number" and "anyOf" not in case["timeout_seconds"]
    check: Any = fixture_schema()["$defs"]
    check = check["ArtifactCheck"]["properties"]["equals"]
    assert check["$ref"] == "#/$defs/JsonValue"


def committed_fixture_schema() -> dict[str, object]:
    loaded: dict[str, object] = json.loads((SCHEMAS_DIR / "fixture.schema.json").read_text())
    return loaded


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_examples_pass_the_schema_and_the_models(path: Path) -> None:
    document = read_document(path).value
    validator = jsonschema.Draft202012Validator(committed_fixture_schema())
    assert [e.message for e in validator.iter_errors(document)] == []
    Fixture.model_validate(document, strict=True)


@pytest.mark.parametrize(
    "path", [p for p in INVALID if read_document(p).parsed], ids=lambda p: p.name
)
def test_invalid_examples_the_schema_rejects_are_rejected_by_the_models(path: Path) -> None:
    parsed = read_document(path)
    document: Any = parsed.value
    schema_errors = list(make_validator(committed_fixture_schema()).iter_errors(document))
    if not schema_errors or path.name in SCHEMA_ONLY:
        return
    with pytest.raises(ValidationError):
        Fixture.model_validate(parsed.value, strict=True)


def test_schema_only_examples_are_still_rejected_by_the_schema() -> None:
    for name in SCHEMA_ONLY:
        document: Any = read_document(HERE / "invalid" / name).value
        assert list(make_validator(committed_fixture_schema()).iter_errors(document))


def test_valid_fixtures_round_trip_through_the_models(tmp_path: Path) -> None:
    for path in VALID:
        fixture = Fixture.model_validate(read_document(path).value, strict=True)
        dumped = fixture.model_dump(mode="json", by_alias=True, exclude_unset=True)
        assert [e.message for e in make_validator(fixture_schema()).iter_errors(dumped)] == []
        assert Fixture.model_validate(dumped, strict=True) == fixture
