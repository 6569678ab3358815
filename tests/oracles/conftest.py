"""Fakes for the process layer and helpers to build cases, shared by the oracle tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.contract.models import Case
from agentic_evals.oracles.base import OracleContext


@dataclass(frozen=True)
class FakeStream:
    """Kept bytes plus how many were written in all (more means truncated)."""

    data: bytes = b""
    written: int | None = None

    @property
    def total_bytes(self) -> int:
        return len(self.data) if self.written is None else self.written

    @property
    def kept_bytes(self) -> int:
        return len(self.data)

    @property
    def truncated(self) -> bool:
        return self.total_bytes > self.kept_bytes

    def contains(self, needle: bytes) -> bool:
        return needle in self.data

    def excerpt(self, limit_chars: int = 10_000) -> str:
        return self.data.decode("utf-8", errors="replace")[:limit_chars]


@dataclass(frozen=True)
class FakeOutcome:
    exit_code: int | None = 0
    term_signal: int | None = None
    timed_out: bool = False
    start_error: str | None = None
    duration_ms: int = 5
    stdout: FakeStream = field(default_factory=FakeStream)
    stderr: FakeStream = field(default_factory=FakeStream)
    orphan_pids: tuple[int, ...] = ()


def build_case(expected: dict[str, Any], **extra: Any) -> Case:
    raw: dict[str, Any] = {
        "name": "c",
        "type": "positive",
        "command": ["true"],
        "expected": {"exit_code": 0, **expected},
        **extra,
    }
    return Case.model_validate(raw)


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
