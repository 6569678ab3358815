"""JSON Schemas (draft 2020-12) generated from the library's models.

The models are the source; ``schemas/*.json`` are generated from them by
``scripts/gen_schemas.py``, committed, and a test fails if regenerating
changes a byte.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import sys
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel
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


def attribute_docs(model: type[BaseModel]) -> dict[str, str]:
    """Return the docstrings written under the model's fields, by field name.

    Read from the source here, when a schema is generated, rather than by
    pydantic at class creation, which would cost every start-up of the tool.
    """
    module = sys.modules[model.__module__]
    tree = ast.parse(inspect.getsource(module))
    docs: dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ClassDef) and node.name == model.__name__):
            continue
        for field, after in zip(node.body, node.body[1:], strict=False):
            if (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[field.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _models(root: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """Return ``root`` and every model its fields use, by class name."""
    found: dict[str, type[BaseModel]] = {}
    stack = [root]
    while stack:
        model = stack.pop()
        if model.__name__ in found:
            continue
        found[model.__name__] = model
        for field in model.model_fields.values():
            stack.extend(_nested_models(field.annotation))
    return found


def _nested_models(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    nested: list[type[BaseModel]] = []
    for arg in getattr(annotation, "__args__", ()) or ():
        nested.extend(_nested_models(arg))
    for meta in getattr(annotation, "__metadata__", ()) or ():
        nested.extend(_nested_models(meta))
    origin = getattr(annotation, "__origin__", None)
    if origin is not None and origin is not annotation:
        nested.extend(_nested_models(origin))
    return nested


def _describe(schema: dict[str, Any], model: type[BaseModel]) -> None:
    docs: dict[str, str] = {}
    # Fields a model inherits are documented in its base classes' bodies.
    for base in reversed(model.__mro__):
        if isinstance(base, type) and issubclass(base, BaseModel) and base is not BaseModel:
            docs.update(attribute_docs(base))
    properties = schema.get("properties", {})
    for name, field in model.model_fields.items():
        key = field.alias or name
        if key in properties and name in docs and "description" not in properties[key]:
            properties[key]["description"] = docs[name]


def _with_descriptions(body: dict[str, Any], root: type[BaseModel]) -> dict[str, Any]:
    models = _models(root)
    _describe(body, root)
    for name, definition in body.get("$defs", {}).items():
        if name in models:
            _describe(definition, models[name])
    return body


def fixture_schema() -> dict[str, Any]:
    """Return the JSON Schema of a fixture (format version 2)."""
    body = Fixture.model_json_schema(
        by_alias=True, mode="validation", schema_generator=FixtureSchemaGenerator
    )
    body = _with_descriptions(body, Fixture)
    return _document(body, FIXTURE_SCHEMA_ID, "agentic-evals fixture (format version 2)")


def report_schema() -> dict[str, Any]:
    """Return the JSON Schema of a run report (``agentic_evals.report.v2``).

    It describes the JSON the tool writes (serialization mode, by alias), so
    ``null`` stays a value wherever the report can hold it.
    """
    body = _with_descriptions(Report.model_json_schema(by_alias=True, mode="serialization"), Report)
    return _document(body, REPORT_SCHEMA_ID, "agentic-evals run report (agentic_evals.report.v2)")


def dump_schema(schema: dict[str, Any]) -> str:
    """Serialise a schema deterministically: sorted keys, indent 2, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _document(body: dict[str, Any], schema_id: str, title: str) -> dict[str, Any]:
    return {**body, "$schema": DRAFT, "$id": schema_id, "title": title}


def _schema_id(name: str) -> str:
    return f"https://agentic-evals.dev/schemas/{name}"


def _input_schema(model: type[BaseModel], name: str, title: str) -> dict[str, Any]:
    """A document people (or crawlers) write: ``null`` is no value for optional fields."""
    body = model.model_json_schema(
        by_alias=True, mode="validation", schema_generator=FixtureSchemaGenerator
    )
    return _document(_with_descriptions(body, model), _schema_id(name), title)


def _output_schema(model: type[BaseModel], name: str, title: str) -> dict[str, Any]:
    """A document the tool writes (serialization mode, by alias)."""
    body = model.model_json_schema(by_alias=True, mode="serialization")
    return _document(_with_descriptions(body, model), _schema_id(name), title)


class _Document(NamedTuple):
    """A document agentic-evals reads (``input``) or writes (``output``)."""

    module: str
    model: str
    direction: Literal["input", "output"]
    title: str


_DOCUMENTS: dict[str, _Document] = {
    "requirements.schema.json": _Document(
        "agentic_evals.fleet.journeys.inputs", "RequirementsDocument", "input",
        "agentic-evals requirements (agentic_evals.requirements.v1)",
    ),
    "interaction_inventory.schema.json": _Document(
        "agentic_evals.fleet.journeys.inputs", "InteractionInventory", "input",
        "agentic-evals interaction inventory (agentic_evals.interaction_inventory.v1)",
    ),
    "state_graph.schema.json": _Document(
        "agentic_evals.fleet.journeys.inputs", "StateGraph", "input",
        "agentic-evals state graph (agentic_evals.state_graph.v1)",
    ),
    "skills_audit.schema.json": _Document(
        "agentic_evals.fleet.models", "SkillsAudit", "output",
        "agentic-evals skill-tree audit (agentic_evals.skills_audit.v1)",
    ),
    "scaffold_receipt.schema.json": _Document(
        "agentic_evals.fleet.models", "ScaffoldReceipt", "output",
        "agentic-evals scaffold receipt (agentic_evals.scaffold_receipt.v1)",
    ),
    "journey_plan.schema.json": _Document(
        "agentic_evals.fleet.journeys.plan_models", "JourneyPlan", "output",
        "agentic-evals journey plan (agentic_evals.journey_plan.v1)",
    ),
    "journey_scaffold.schema.json": _Document(
        "agentic_evals.fleet.journeys.plan_models", "JourneyScaffold", "output",
        "agentic-evals journey scaffold fragment (agentic_evals.journey_scaffold.v1)",
    ),
    "coverage.schema.json": _Document(
        "agentic_evals.coverage.models", "CoverageReport", "output",
        "agentic-evals seam coverage of a skill (agentic_evals.coverage.v1)",
    ),
    "coverage_audit.schema.json": _Document(
        "agentic_evals.coverage.models", "CoverageAudit", "output",
        "agentic-evals seam coverage of a skill tree (agentic_evals.coverage_audit.v1)",
    ),
    "regressions.schema.json": _Document(
        "agentic_evals.regressions.models", "RegressionRegistry", "input",
        "agentic-evals regression registry (agentic_evals.regressions.v1)",
    ),
}  # fmt: skip


def document_schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema ``schemas/<name>`` of a fleet, coverage or regression document.

    The model is imported only here, so that loading this module stays cheap.
    """
    document = _DOCUMENTS[name]
    model = getattr(importlib.import_module(document.module), document.model)
    build = _input_schema if document.direction == "input" else _output_schema
    return build(model, name, document.title)


def regressions_schema() -> dict[str, Any]:
    """Return the JSON Schema of a regression registry (``agentic_evals.regressions.v1``)."""
    return document_schema("regressions.schema.json")


FLEET_SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    name: functools.partial(document_schema, name) for name in _DOCUMENTS
}
"""Fleet, coverage and regression documents: file name under ``schemas/`` -> generator."""
