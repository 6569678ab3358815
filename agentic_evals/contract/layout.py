"""Where a skill keeps its fixtures: ``fixtures/agentic_eval*`` JSON or YAML files."""

from typing import Final

from agentic_evals.documents.yaml_io import SUFFIXES

FIXTURES_DIR: Final = "fixtures"
"""The folder of a skill that holds its fixtures (and its regression registry)."""
FIXTURE_PREFIX: Final = "agentic_eval"


def is_fixture_name(name: str) -> bool:
    """Whether ``name`` is an agentic fixture file name (``agentic_eval*.json|yaml|yml``)."""
    return name.startswith(FIXTURE_PREFIX) and name.endswith(SUFFIXES)
