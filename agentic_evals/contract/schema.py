"""The JSON Schema of a fixture, generated from its models (``schemas/fixture.schema.json``)."""

from agentic_evals.contract.models import Fixture
from agentic_evals.documents.schema_gen import SchemaSpec

FIXTURE_DOCUMENT = SchemaSpec(
    Fixture, "fixture.schema.json", "agentic-evals fixture (format version 2)", "input"
)
