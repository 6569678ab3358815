"""JSON Schemas (draft 2020-12) generated from the library's models.

The models are the source; ``schemas/*.json`` are generated from them by
``scripts/gen_schemas.py``, committed, and a test fails if regenerating
changes a byte.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from agentic_evals.contract.models import Fixture
from agentic_evals.reports.model import Report

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FIXTURE_SCHEMA_ID = "https://agentic-evals.dev/schemas/fixture.schema.json"
REPORT_SCHEMA_ID = "https://agentic-evals.dev/schemas/report.schema.json"


class FixtureSchemaGenerator(GenerateJsonSchema):
    """Schema generator for documents people write.

    An optional field whose default is ``None`` is optional because it may be
    left out, not because ``null`` is a value an author should write: its
    schema accepts only the non-null type (``"timeout_seconds": null`` is a
    type error). Fields typed ``JsonValue`` are not nullable unions and keep
    accepting ``null``.
    """

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        """Drop ``null`` (and the ``null`` default) from ``X | None = None`` fields."""
        inner = schema["schema"]
        if inner["type"] == "nullable" and self.get_default_value(schema) is None:
            return self.generate_inner(inner["schema"])
        return super().default_schema(schema)


def fixture_schema() -> dict[str, Any]:
    """Return the JSON Schema of a fixture (format version 2)."""
    body = Fixture.model_json_schema(
        by_alias=True, mode="validation", schema_generator=FixtureSchemaGenerator
    )
    return _document(body, FIXTURE_SCHEMA_ID, "agentic-evals fixture (format version 2)")


def report_schema() -> dict[str, Any]:
    """Return the JSON Schema of a run report (``agentic_evals.report.v2``).

    It describes the JSON the tool writes (serialization mode, by alias), so
    ``null`` stays a value wherever the report can hold it.
    """
    body = Report.model_json_schema(by_alias=True, mode="serialization")
    return _document(body, REPORT_SCHEMA_ID, "agentic-evals run report (agentic_evals.report.v2)")


def dump_schema(schema: dict[str, Any]) -> str:
    """Serialise a schema deterministically: sorted keys, indent 2, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _document(body: dict[str, Any], schema_id: str, title: str) -> dict[str, Any]:
    return {**body, "$schema": DRAFT, "$id": schema_id, "title": title}
