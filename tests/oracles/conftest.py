"""Fakes for the process layer and helpers to build cases, shared by the oracle tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import FakeProcess as FakeOutcome
from builders import FakeStream, case

from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleContext


def build_case(expected: dict[str, Any], **extra: Any) -> Case:
    return Case.model_validate(case(expected={"exit_code": 0, **expected}, **extra))


@pytest.fixture
def make_case() -> Callable[..., Case]:
    return build_case


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A boundary directory, separate from an ``outside`` sibling."""
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "outside").mkdir()
    return root


@pytest.fixture
def ctx(workspace: Path) -> OracleContext:
    return OracleContext(artifact_root=workspace, boundary=workspace)


@pytest.fixture
def make_outcome() -> Callable[..., FakeOutcome]:
    """Build an outcome; ``stdout``/``stderr`` may be given as bytes."""

    def build(**kwargs: Any) -> FakeOutcome:
        for name in ("stdout", "stderr"):
            if isinstance(kwargs.get(name), bytes):
                kwargs[name] = FakeStream(kwargs[name])
        return FakeOutcome(**kwargs)

    return build


@pytest.fixture
def make_stream() -> Callable[..., FakeStream]:
    return FakeStream
