"""The pre-trial state every isolated trial is judged with: the tree before the trial.

The null trial of the evidence rules evaluates artifact checks against it
(``OracleContext.pre_trial``): the overlay's lower layer, or the input a copy
was made from; a trial on the shared tree has none.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from isolation_helpers import case, fixture, needs_overlay, run

from agentic_evals.contract.layout import FixtureLayout
from agentic_evals.contract.models import Expected
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.oracles.artifacts import check as artifact_check
from agentic_evals.oracles.base import OracleContext, OracleResult
from agentic_evals.oracles.registry import evaluate as evaluate_oracles
from agentic_evals.runner.confinement import confined
from agentic_evals.runner.isolation.run import RunIsolation
from agentic_evals.runner.plan import CasePlanner, TrialSettings
from agentic_evals.runner.trials import execute_trial

# Appends to a committed file and makes a new one: the trial's own checks pass, and on
# the tree before the trial the new file is missing while the committed one is there.
EDITS = "echo trial >> committed.txt; echo new > made.txt"
CHECKS = [{"path": "made.txt", "exists": True}, {"path": "committed.txt", "exists": True}]


def null_trials(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record, for every trial judged, its checks evaluated on its pre-trial state.

    Evaluated where the runner judges the trial (its thread), as the evidence rules will.
    """
    seen: list[Any] = []
    real = evaluate_oracles

    def judged(case: Any, result: Any, context: OracleContext) -> OracleResult:
        pre = context.pre_trial
        if pre is None:
            seen.append(None)
        else:
            null = real(case, result, pre.oracle_context())
            content = (pre.artifact_root / "committed.txt").read_text()
            seen.append((pre.source, [(p.code, p.oracle) for p in null.problems], content))
        return real(case, result, context)

    monkeypatch.setattr("agentic_evals.runner.verdict.evaluate_oracles", judged)
    return seen


@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "parallel"])
@pytest.mark.parametrize(
    ("isolation", "source"),
    [
        pytest.param("overlay", "lower", marks=needs_overlay, id="overlay"),
        pytest.param("copy", "copy_source", id="copy"),
    ],
)
def test_every_isolated_trial_is_judged_with_the_tree_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolation: str, source: str, jobs: int
) -> None:
    skill = tmp_path / "skill"
    (skill / "data").mkdir(parents=True)
    (skill / "data" / "committed.txt").write_text("before\n")
    edits = case("edits", EDITS, workspace={"input": "data"}, expected={"artifacts": CHECKS})
    seen = null_trials(monkeypatch)
    report = run(fixture(skill, [edits], trials=3, isolation=isolation), jobs=jobs)
    assert [t.outcome for t in report.cases[0].trials] == ["PASS"] * 3
    # Every trial sees the untouched tree, never what an earlier trial left.
    missing = [("ARTIFACT_MISSING", "/expected/artifacts/0")]
    assert seen == [(source, missing, "before\n")] * 3
    assert (skill / "data" / "committed.txt").read_text() == "before\n"


@needs_overlay
def test_a_trial_without_a_workspace_is_judged_with_the_lower_layer_of_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = tmp_path / "skill"
    (skill / "committed.txt").parent.mkdir(parents=True)
    (skill / "committed.txt").write_text("before\n")
    seen = null_trials(monkeypatch)
    report = run(fixture(skill, [case("edits", EDITS, expected={"artifacts": CHECKS})]))
    assert report.readiness == "READY"
    assert seen == [("lower", [("ARTIFACT_MISSING", "/expected/artifacts/0")], "before\n")] * 2


def test_a_trial_on_the_shared_tree_has_no_pre_trial_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "committed.txt").write_text("before\n")
    seen = null_trials(monkeypatch)
    edits = case("edits", EDITS, expected={"artifacts": CHECKS})
    report = run(fixture(skill, [edits], trials=1, isolation="none"))
    assert report.readiness == "READY"
    assert seen == [None]
    assert (skill / "committed.txt").read_text() == "before\ntrial\n"


@needs_overlay
@pytest.mark.parametrize("with_workspace", [False, True], ids=["tree", "workspace"])
def test_the_pre_trial_state_is_the_tree_before_the_trial(
    tmp_path: Path, with_workspace: bool
) -> None:
    skill = tmp_path / "skill"
    (skill / "data").mkdir(parents=True)
    (skill / "data" / "before.txt").write_text("before\n")
    workspace = {"workspace": {"input": "data"}} if with_workspace else {}
    path = fixture(skill, [case("edits", "true", **workspace)])
    loaded = load_fixture(path)
    model = loaded.model
    assert model is not None
    isolation = RunIsolation.start(model, skill, skill, "pretrial", frozenset())
    found: list[object] = []

    def in_a_trial_thread() -> None:
        view = isolation.open_view(model.cases[0], skill / "data" if workspace else None)
        prefix = Path("") if with_workspace else Path("data")
        (view.cwd / prefix / "before.txt").write_text("changed by the trial\n")
        (view.cwd / prefix / "after.txt").write_text("made by the trial\n")
        pre = view.context.pre_trial
        assert pre is not None and pre.source == "lower"
        found.append((pre.artifact_root / prefix / "before.txt").read_text())
        found.append((pre.artifact_root / prefix / "after.txt").exists())
        checks = [{"path": str(prefix / "after.txt"), "exists": True}]
        expected = Expected.model_validate({"exit_code": 0, "artifacts": checks})
        outcome = artifact_check(expected, None, pre.oracle_context())  # type: ignore[arg-type]
        found.append([p.code for p in outcome.problems])
        view.finish(False)

    worker = threading.Thread(target=in_a_trial_thread)
    worker.start()
    worker.join()
    isolation.close()
    assert found == ["before\n", False, ["ARTIFACT_MISSING"]]
    assert (skill / "data" / "before.txt").read_text() == "before\n"


@needs_overlay
def test_an_executed_trial_carries_its_pre_trial_state(tmp_path: Path) -> None:
    skill = tmp_path / "skill"
    path = fixture(skill, [case("writes", "echo new > made.txt")], trials=1)
    loaded = load_fixture(path)
    assert loaded.model is not None
    with confined(loaded.model, skill, skill, "carries", os.environ) as confinement:
        settings = TrialSettings(
            run_id="carries",
            layout=FixtureLayout(skill, skill, skill),
            base_env=dict(os.environ),
            default_timeout=30,
            grace_seconds=0.5,
            stream_cap=2**20,
            isolation=confinement.isolation,
            containment=confinement.containment,
        )
        plan = CasePlanner(settings).plan(loaded.model.cases[0], "probe::writes")
        trial = execute_trial(plan, 1, settings, preexisting=None)
        try:
            pre = trial.context.pre_trial
            assert pre is not None and pre.source == "lower"
            assert not (pre.artifact_root / "made.txt").exists()
            assert (pre.artifact_root / "fixture.json").exists()
            assert trial.context.workspace_changes is not None
            assert trial.context.workspace_changes.added == ["made.txt"]
        finally:
            trial.close()
