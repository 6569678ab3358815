"""CasePlanner: what the trials of a run share is worked out once, per environment."""

from __future__ import annotations

import stat
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Case
from agentic_evals.redact import REDACTED
from agentic_evals.runner import plan as trials
from agentic_evals.runner.plan import CasePlanner, TrialSettings


def settings_for(folder: Path, path: str) -> TrialSettings:
    return TrialSettings(
        run_id=uuid.uuid4().hex,
        layout=layout_for(folder, None),
        base_env={"PATH": path, "HOME": str(folder)},
        default_timeout=30.0,
        grace_seconds=1.0,
        stream_cap=1 << 20,
    )


def case(name: str, command: list[str], **extra: Any) -> Case:
    document = {"name": name, "type": "positive", "command": command}
    return Case.model_validate({**document, "expected": {"exit_code": 0}, **extra})


def tool_in(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    tool = folder / name
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return tool


def test_cases_with_the_same_environment_share_lookups_and_redactor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tool_in(tmp_path / "bin", "tool")
    lookups: list[str] = []
    real = trials.find_program

    def counted(program: str, env: Mapping[str, str]) -> str | None:
        lookups.append(program)
        return real(program, env)

    monkeypatch.setattr(trials, "find_program", counted)
    planner = CasePlanner(settings_for(tmp_path, str(tmp_path / "bin")))
    plans = [planner.plan(case(f"c{n}", ["tool", str(n)]), f"s::c{n}") for n in range(5)]
    assert lookups == ["tool"]
    assert {plan.executable for plan in plans} == {str(first)}
    assert len({id(plan.redactor) for plan in plans}) == 1


def test_a_case_with_its_own_path_or_secret_gets_its_own(tmp_path: Path) -> None:
    tool_in(tmp_path / "bin", "tool")
    own = tool_in(tmp_path / "other", "tool")
    planner = CasePlanner(settings_for(tmp_path, str(tmp_path / "bin")))
    plain = planner.plan(case("plain", ["tool"]), "s::plain")
    secret = "s3cr3t-value-long-enough"
    special = planner.plan(
        case("special", ["tool"], env={"PATH": str(tmp_path / "other"), "API_TOKEN": secret}),
        "s::special",
    )
    assert special.executable == str(own)
    assert plain.executable == str(tmp_path / "bin" / "tool")
    assert special.redactor.redact(f"got {secret}") == f"got {REDACTED}"
    assert plain.redactor.redact(f"got {secret}") == f"got {secret}"


def test_each_run_looks_again(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, str(tmp_path / "bin"))
    assert CasePlanner(settings).plan(case("c", ["tool"]), "s::c").executable is None
    tool = tool_in(tmp_path / "bin", "tool")  # installed between two runs
    assert CasePlanner(settings).plan(case("c", ["tool"]), "s::c").executable == str(tool)
