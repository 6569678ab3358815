"""The JSON Schema of a run report (``schemas/report.schema.json``).

It describes the JSON the tool writes (serialization mode, by alias), so
``null`` stays a value wherever the report can hold it.
"""

from agentic_evals.documents.schema_gen import SchemaSpec
from agentic_evals.reports.model import Report

REPORT_DOCUMENT = SchemaSpec(
    Report,
    "report.schema.json",
    "agentic-evals run report (agentic_evals.report.v2)",
    "output",
)
