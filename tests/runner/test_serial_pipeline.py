"""A serial run's work beside its trials: the next command made ahead, the record made
later, and a short trial's exit polled for (:mod:`agentic_evals.runner.serial`,
:mod:`agentic_evals.runner.polling`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from agentic_evals import clock
from agentic_evals.contract.layout import fixture_layout
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner import polling, process, serial, trials
from agentic_evals.runner.capture import StreamSink
from agentic_evals.runner.case_run import CaseRun
from agentic_evals.runner.plan import CasePlanner, TrialSettings
from agentic_evals.runner.polling import POLL_LIMIT, ExitPolling
from agentic_evals.runner.pump import PipePump


def _fixture(tmp_path: Path, cases: list[dict[str, Any]], runs: int = 3) -> Path:
    path = tmp_path / "pipeline.json"
    document = {"version": 2, "skill": "pipe", "eval_kind": "runner_selftest", "trials": runs,
                "cases": cases}  # fmt: skip
    path.write_text(json.dumps(document))
    return path


def _case(name: str, script: str, **fields: Any) -> dict[str, Any]:
    """A case running ``bash -c script``; ``deterministic`` (untraced) unless ``fields`` say."""
    return {"name": name, "type": "positive", "command": ["bash", "-c", script],
            "expected": {"exit_code": 0}, "evidence_class": "deterministic",
            **fields}  # fmt: skip


def test_every_trial_runs_its_own_command_though_each_was_made_while_another_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made_while_running: list[tuple[str, int]] = []
    real = trials.trial_command
    running = {"now": False}

    def spy(plan: Any, number: int, settings: Any, copy: Any = None) -> Any:
        if running["now"]:
            made_while_running.append((plan.case.name, number))
        return real(plan, number, settings, copy)

    real_execute = trials.execute_trial

    def execute(*args: Any, **kwargs: Any) -> Any:
        started = kwargs["on_started"]

        def flagged() -> None:
            running["now"] = True
            try:
                started()
            finally:
                running["now"] = False

        kwargs["on_started"] = flagged
        return real_execute(*args, **kwargs)

    monkeypatch.setattr(serial, "trial_command", spy)
    monkeypatch.setattr(serial, "execute_trial", execute)
    script = 'echo "$AGENTIC_EVALS_CASE/$AGENTIC_EVALS_TRIAL" | tee out.txt'
    # A case judged at once (it reads a file) takes no command made ahead: the one made for
    # it while the trial before it ran must not go to the trial after it.
    reads = _case("reads", script, expected={"exit_code": 0, "artifacts": [
        {"path": "out.txt", "content_regex": "reads"}]})  # fmt: skip
    cases = [_case("first", script), reads, _case("second", script)]
    report = evaluate(load_fixture(_fixture(tmp_path, cases)), RunOptions()).report
    printed = [t.stdout.strip() for case in report.cases for t in case.trials]
    names = ("first", "reads", "second")
    assert printed == [f"{name}/{n}" for name in names for n in (1, 2, 3)]
    assert [case.outcome for case in report.cases] == ["PASS"] * 3
    # Every trial that waits to be judged, after one that did, was prepared while that one
    # ran; a trial judged at once makes its own.
    assert made_while_running == [("first", 2), ("first", 3), ("second", 2), ("second", 3)]


def test_a_trial_lasts_until_its_own_tree_is_gone_not_until_its_record_is_made(
    tmp_path: Path,
) -> None:
    path = _fixture(tmp_path, [_case("quick", "sleep 0.1"), _case("slow", "sleep 1")], runs=1)
    report = evaluate(load_fixture(path), RunOptions()).report
    quick, slow = (case.trials[0].duration_ms for case in report.cases)
    # The quick trial's record is made while the slow one runs: its time is its own.
    assert 100 <= quick < 600 and slow >= 1000


def test_a_workspace_case_still_makes_its_command_in_its_own_copy(tmp_path: Path) -> None:
    (tmp_path / "input").mkdir()
    (tmp_path / "input" / "seed.txt").write_text("seed\n")
    case = _case("copies", "cat seed.txt && pwd", workspace={"input": "input"},
                 expected={"exit_code": 0, "stdout_contains": ["seed"]})  # fmt: skip
    path = _fixture(tmp_path, [_case("before", "true"), case])
    report = evaluate(load_fixture(path), RunOptions()).report
    places = {t.stdout.splitlines()[-1] for t in report.cases[1].trials}
    assert [c.outcome for c in report.cases] == ["PASS", "PASS"]
    assert len(places) == 3 and str(tmp_path) not in places  # a fresh copy every trial


def _true(name: str) -> dict[str, Any]:
    """A case of ``true`` itself: a trial that ends well within the polling limit."""
    return {**_case(name, ""), "command": ["true"]}


def _polled(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The poll budgets the run's spawns were given."""
    budgets: list[float] = []
    real = process.end_process

    def spy(*args: Any, **kwargs: Any) -> Any:
        budgets.append(kwargs.get("poll_seconds", 0.0))
        return real(*args, **kwargs)

    monkeypatch.setattr(trials, "end_process", spy)
    return budgets


needs_two_cpus = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="polling needs a second CPU for the trial"
)


@needs_two_cpus
def test_short_trials_poll_after_the_first_and_long_ones_stop_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AGENTIC_EVALS_DISABLE", raising=False)
    # A limit a loaded machine's `true` surely keeps within, and a `sleep` surely passes.
    monkeypatch.setattr(polling, "POLL_LIMIT", 0.5)
    budgets = _polled(monkeypatch)
    cases = [_true("short"), _case("long", "sleep 0.6"), _true("after")]
    evaluate(load_fixture(_fixture(tmp_path, cases, runs=2)), RunOptions())
    # short#1 has no trial before it; long#1 follows a short one; long#2 and after#1 follow
    # long ones; after#2 follows a short one.
    assert budgets == [0.0, 0.5, 0.5, 0.0, 0.0, 0.5]


def test_traced_trials_parallel_runs_and_the_switch_never_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    budgets = _polled(monkeypatch)
    traced = _case("traced", "true", evidence_class="live_e2e")
    path = _fixture(tmp_path, [_true("short"), traced], runs=2)
    evaluate(load_fixture(path), RunOptions())
    assert budgets[2:] == [0.0, 0.0]  # its tracers' threads would wait while the runner polls
    budgets.clear()
    evaluate(load_fixture(_fixture(tmp_path, [_true("short")], runs=4)), RunOptions(jobs=2))
    assert budgets == [0.0] * 4
    budgets.clear()
    monkeypatch.setenv("AGENTIC_EVALS_DISABLE", "poll")
    evaluate(load_fixture(_fixture(tmp_path, [_true("short")], runs=4)), RunOptions())
    assert budgets == [0.0] * 4


def test_the_polling_rule() -> None:
    one_cpu, off = ExitPolling({}, cpus=1), ExitPolling({"AGENTIC_EVALS_DISABLE": "x,poll"}, 8)
    polling = ExitPolling({}, cpus=2)
    for rule in (one_cpu, off, polling):
        assert rule.budget() == 0.0  # nothing ran yet
        rule.ended(POLL_LIMIT / 2)
    assert (one_cpu.budget(), off.budget(), polling.budget()) == (0.0, 0.0, POLL_LIMIT)
    polling.ended(None)  # a trial that could not start changes nothing
    assert polling.budget() == POLL_LIMIT
    polling.ended(POLL_LIMIT * 1.5)
    assert polling.budget() == 0.0


def _pump() -> tuple[PipePump, int, int]:
    read, write = os.pipe()
    sink = StreamSink(stream_cap=1024, spool_threshold=1024)
    return PipePump({read: sink}, on_output=lambda: None), read, write


def test_a_polling_wait_sees_a_descriptor_ready_while_polling_and_after() -> None:
    pump, read, write = _pump()
    other_read, other_write = os.pipe()
    try:
        os.write(other_write, b"x")
        now = clock.monotonic()
        assert pump.wait([other_read], now + 5, poll_until=now + 1) == set()
        late_read, late_write = os.pipe()
        began = clock.monotonic()
        # Nothing ready before the poll ends: the wait sleeps on, and the deadline ends it.
        now = clock.monotonic()
        assert pump.wait([late_read], now + 0.2, poll_until=now + 0.05) == {late_read}
        assert 0.2 <= clock.monotonic() - began < 2
        # A deadline before the end of the poll ends the wait at the deadline.
        now = clock.monotonic()
        assert pump.wait([late_read], now + 0.05, poll_until=now + 10) == {late_read}
        assert clock.monotonic() - began < 3
        for fd in (late_read, late_write):
            os.close(fd)
    finally:
        pump.close()
        for fd in (read, write, other_read, other_write):
            os.close(fd)


def test_run_process_still_makes_the_record_at_once(tmp_path: Path) -> None:
    result = process.run_process(["sh", "-c", "echo hi"], cwd=tmp_path, env=dict(os.environ),
                                 timeout=10)  # fmt: skip
    try:
        assert (result.exit_code, result.stdout.excerpt(100).strip()) == (0, "hi")
    finally:
        result.close()


def test_a_command_made_ahead_goes_only_to_the_trial_it_was_made_for(tmp_path: Path) -> None:
    path = _fixture(tmp_path, [_case("one", "true"), _case("two", "true")], runs=2)
    loaded = load_fixture(path)
    model = loaded.model
    assert model is not None and isinstance(loaded.document, dict)
    runs = [CaseRun(i, c, loaded.document["cases"][i], []) for i, c in enumerate(model.cases)]
    layout = fixture_layout(path, None)
    settings = TrialSettings("r" * 32, layout, {}, 10.0, 1.0, 1024)
    order = serial._SerialOrder(model, runs, settings)
    steps = iter(order)
    first = next(steps)
    order.prepare()  # made for the next step: one#2
    other = CasePlanner(settings).plan(runs[1].case, "pipe::two")
    assert order.command(other, 2) is None  # another case's trial gets nothing
    order.prepare()
    assert first.plan is not None and order.command(first.plan, 1) is None  # nor another number
    order.prepare()
    made = order.command(first.plan, 2)
    assert made is not None and made.env["AGENTIC_EVALS_TRIAL"] == "2"
    assert order.command(first.plan, 2) is None  # taken once
