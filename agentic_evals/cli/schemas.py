"""Every JSON Schema agentic-evals publishes under ``schemas/``, by kind.

The ``schema`` command prints one, ``scripts/gen_schemas.py`` writes them all
and a test fails when a committed file differs from what its model generates.
Each document declares its :class:`~agentic_evals.documents.schema_gen.SchemaSpec`
next to its model; the modules are imported only when a schema is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentic_evals.documents.schema_gen import SchemaSpec

SCHEMAS: Mapping[str, str] = {
    "fixture": "agentic_evals.contract.schema:FIXTURE_DOCUMENT",
    "report": "agentic_evals.reports.schema:REPORT_DOCUMENT",
    "requirements": "agentic_evals.skills.journeys.inputs:REQUIREMENTS_DOCUMENT",
    "interaction_inventory": "agentic_evals.skills.journeys.inputs:INVENTORY_DOCUMENT",
    "state_graph": "agentic_evals.skills.journeys.inputs:STATE_GRAPH_DOCUMENT",
    "skills_audit": "agentic_evals.skills.models:SKILLS_AUDIT_DOCUMENT",
    "scaffold_receipt": "agentic_evals.skills.models:SCAFFOLD_RECEIPT_DOCUMENT",
    "journey_plan": "agentic_evals.skills.journeys.plan_models:JOURNEY_PLAN_DOCUMENT",
    "journey_scaffold": "agentic_evals.skills.journeys.plan_models:JOURNEY_SCAFFOLD_DOCUMENT",
    "coverage": "agentic_evals.coverage.models:COVERAGE_DOCUMENT",
    "coverage_audit": "agentic_evals.coverage.models:COVERAGE_AUDIT_DOCUMENT",
    "regressions": "agentic_evals.regressions.schema:REGISTRY_DOCUMENT",
    "regressions_show": "agentic_evals.regressions.results:SHOW_DOCUMENT",
    "regressions_audit": "agentic_evals.regressions.results:AUDIT_DOCUMENT",
    "regressions_verify": "agentic_evals.regressions.results:VERIFY_DOCUMENT",
    "compare": "agentic_evals.compare.models:COMPARE_DOCUMENT",
    "history_list": "agentic_evals.history.models:HISTORY_DOCUMENTS.list",
    "history_show": "agentic_evals.history.models:HISTORY_DOCUMENTS.show",
    "history_trend": "agentic_evals.history.models:HISTORY_DOCUMENTS.trend",
    "history_flaky": "agentic_evals.history.models:HISTORY_DOCUMENTS.flaky",
    "history_prune": "agentic_evals.history.models:HISTORY_DOCUMENTS.prune",
    "history_import": "agentic_evals.history.models:HISTORY_DOCUMENTS.import",
    "history_imported": "agentic_evals.history.models:HISTORY_DOCUMENTS.imported",
    "eee_import": "agentic_evals.interchange.models:EEE_IMPORT_DOCUMENT",
}
"""Kind (as the ``schema`` command names it) to ``module:attribute`` of its spec, or
``module:attribute.key`` of a spec in a mapping of them."""


def spec(kind: str) -> SchemaSpec:
    """The schema spec of ``kind`` (a key of :data:`SCHEMAS`)."""
    module, _, attribute = SCHEMAS[kind].partition(":")
    name, _, key = attribute.partition(".")
    found = getattr(importlib.import_module(module), name)
    document: SchemaSpec = found[key] if key else found
    return document
