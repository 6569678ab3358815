"""Defect 6: a catastrophic pattern cannot hang a run, and the checks of a trial have a deadline.

Every regex oracle (``content_regex``, ``stdout_regex``, ``stderr_regex``)
goes through the one bounded engine (RE2, linear time): ``^(a+)+$`` over a
1 MiB artifact and 1 MiB streams is judged at once. The checks of one trial
stop at a deadline (``MAX_ORACLE_SECONDS``); past it the checks not yet run
are one ``ORACLE_TIMEOUT`` problem, not a hang.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from builders import FakeProcess, case
from hostile_run_helpers import cli, skill

from agentic_evals import clock
from agentic_evals.contract.models import Case
from agentic_evals.oracles import artifacts, registry
from agentic_evals.oracles.base import OracleContext, OracleResult

CATASTROPHIC = "^(a+)+$"
WRITE = (
    "import sys; t = 'a' * 2**20 + '!'; open('big.txt', 'w').write(t); print(t); "
    "sys.stderr.write(t)"
)


def test_d06_a_catastrophic_pattern_over_a_mebibyte_is_judged_at_once(tmp_path: Path) -> None:
    expected = {
        "exit_code": 0,
        "stdout_regex": [CATASTROPHIC],
        "stderr_regex": [CATASTROPHIC],
        "artifacts": [{"path": "big.txt", "content_regex": CATASTROPHIC}],
    }
    fixture = skill(tmp_path / "s", [{**_case(), "expected": expected}])
    output = tmp_path / "report.json"
    # Not a benchmark: a generous bound only tells "judged" from "hangs" (it ran for 90 s).
    code, err = cli("run", str(fixture), "-o", str(output), timeout=20)
    assert code == 1, err
    (trial,) = json.loads(output.read_text())["cases"][0]["trials"]
    codes = sorted(problem["code"] for problem in trial["problems"])
    assert codes == ["ARTIFACT_REGEX", "STDERR_REGEX", "STDOUT_REGEX"]


def _case() -> dict[str, object]:
    return {"name": "big", "type": "positive", "command": ["python3", "-c", WRITE]}


def _model(tmp_path: Path) -> tuple[Case, OracleContext]:
    (tmp_path / "a.txt").write_text("a")
    expected = {"exit_code": 0, "artifacts": [{"path": "a.txt", "exists": True}] * 3}
    model = Case.model_validate(case(expected=expected))
    return model, OracleContext(artifact_root=tmp_path, boundary=tmp_path)


def test_d06_checks_past_their_deadline_are_one_named_problem(tmp_path: Path) -> None:
    model, ctx = _model(tmp_path)
    late = replace(ctx, deadline=clock.monotonic() - 1)
    (problem,) = registry.evaluate(model, FakeProcess(exit_code=1), late).problems
    assert problem.code == "ORACLE_TIMEOUT" and problem.oracle == "/expected/exit_code"
    assert "not evaluated" in problem.message


def test_d06_the_deadline_stops_the_artifact_checks_between_two_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, ctx = _model(tmp_path)
    now = clock.monotonic()
    fake = [now]
    monkeypatch.setattr(clock, "monotonic", lambda: fake[0])
    real_run = artifacts._Checker.run

    def slow_run(checker: artifacts._Checker) -> OracleResult:
        fake[0] += 100  # this check takes long
        return real_run(checker)

    monkeypatch.setattr(artifacts._Checker, "run", slow_run)
    result = registry.evaluate(model, FakeProcess(), replace(ctx, deadline=now + 1))
    assert [(p.code, p.oracle) for p in result.problems] == [
        ("ORACLE_TIMEOUT", "/expected/artifacts/1")
    ]


def test_d06_the_registry_sets_the_deadline_from_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, ctx = _model(tmp_path)
    assert registry.evaluate(model, FakeProcess(), ctx).problems == []
    monkeypatch.setattr(registry, "MAX_ORACLE_SECONDS", -1.0)
    (problem,) = registry.evaluate(model, FakeProcess(), ctx).problems
    assert problem.code == "ORACLE_TIMEOUT"


def test_d06_a_content_regex_the_engine_refuses_is_a_load_error_at_its_pointer(
    tmp_path: Path,
) -> None:
    expected = {"exit_code": 0, "artifacts": [{"path": "x", "content_regex": "(?=a)a"}]}
    fixture = skill(tmp_path / "s", [{**_case(), "expected": expected}])
    code, err = cli("validate", str(fixture))
    assert code == 2, err
    assert "/cases/0/expected/artifacts/0/content_regex AE-SCHEMA-VALUE" in err
    assert "look-ahead is not supported" in err
