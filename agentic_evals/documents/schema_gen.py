"""JSON Schemas (draft 2020-12) generated from the models of the documents.

The models are the source: ``schemas/*.json`` are generated from them by
``scripts/gen_schemas.py`` and committed, and a test fails if regenerating
changes a byte. Each document declares its :class:`SchemaSpec` next to its
model; ``agentic_evals.cli.schemas`` lists them all.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_BASE = "https://agentic-evals.dev/schemas/"
SCHEMA_KEY = "$schema"
"""The top-level key naming a document's JSON Schema (for editors); every input accepts it."""
SCHEMA_KEY_SCHEMA: dict[str, Any] = {
    "description": "The JSON Schema of this document, for editors (its $id, or a path).",
    "type": "string",
}


class InputSchemaGenerator(GenerateJsonSchema):
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
    """Return the docstrings written under the model's fields (its bases' too), by field name.

    Read from the source here, when a schema is generated, rather than by
    pydantic at class creation, which would cost every start-up of the tool.
    """
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls is not BaseModel:
            docs.update(_own_docs(cls))
    return docs


def _own_docs(model: type[BaseModel]) -> dict[str, str]:
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
    docs = attribute_docs(model)
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


class SchemaSpec(NamedTuple):
    """One document's schema: its model, file name under ``schemas/``, title and direction."""

    model: type[BaseModel]
    """The root model; the schema is generated from it."""
    file: str
    """File name under ``schemas/`` (also the end of the schema's ``$id``)."""
    title: str
    """The schema's title."""
    direction: Literal["input", "output"]
    """``input``: a document people or tools write, and agentic-evals reads (``null`` is no
    value for optional fields, see :class:`InputSchemaGenerator`); ``output``: a document
    the tool writes (serialization mode, by alias)."""

    def build(self) -> dict[str, Any]:
        """Generate the schema."""
        if self.direction == "input":
            body = self.model.model_json_schema(
                by_alias=True, mode="validation", schema_generator=InputSchemaGenerator
            )
        else:
            body = self.model.model_json_schema(by_alias=True, mode="serialization")
        body = _with_descriptions(body, self.model)
        if self.direction == "input":
            # Editors find a document's schema by its `$schema` key: every input takes one.
            body["properties"] = {SCHEMA_KEY: SCHEMA_KEY_SCHEMA, **body.get("properties", {})}
        return {**body, "$schema": DRAFT, "$id": SCHEMA_BASE + self.file, "title": self.title}


def dump_schema(schema: dict[str, Any]) -> str:
    """Serialise a schema deterministically: sorted keys, indent 2, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
