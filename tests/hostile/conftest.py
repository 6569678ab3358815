"""Inputs shared by the hostile-input tests, built once per session."""

from __future__ import annotations

import pytest
from hostile_helpers import Inputs, make_inputs


@pytest.fixture(scope="session")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Inputs:
    """A fixture, two real reports, a skill folder and an empty tree of skills."""
    return make_inputs(tmp_path_factory.mktemp("inputs"))
