"""The JSON Schema of a regression registry (``schemas/regressions.schema.json``)."""

from agentic_evals.documents.schema_gen import SchemaSpec
from agentic_evals.regressions.models import RegressionRegistry

REGISTRY_DOCUMENT = SchemaSpec(
    RegressionRegistry,
    "regressions.schema.json",
    "agentic-evals regression registry (agentic_evals.regressions.v1)",
    "input",
)
