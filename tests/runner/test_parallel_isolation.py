"""Parallel runs equal serial runs by construction, and never miss a trial's process."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from isolation_helpers import case, cgroup_problem, fixture, overlay_problem, run, serial_note

from agentic_evals import codes

# A daemon that drops every environment marker and leaves the trial's session (issue 17, 2).
DAEMON = "env -i setsid sleep {seconds} > /dev/null 2>&1 < /dev/null & echo started"


def sleepers(tag: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if tag in " ".join(proc.info["cmdline"] or []):
            found.append(proc)
    return found


@pytest.mark.parametrize(
    "disabled",
    [
        pytest.param(
            "",
            marks=pytest.mark.skipif(cgroup_problem() is not None, reason=f"{cgroup_problem()}"),
            id="cgroups",
        ),
        pytest.param(
            "cgroups",
            marks=pytest.mark.skipif(overlay_problem() is not None, reason=f"{overlay_problem()}"),
            id="private-namespaces",
        ),
        pytest.param(
            "cgroups,overlay",
            marks=pytest.mark.skipif(overlay_problem() is not None, reason=f"{overlay_problem()}"),
            id="copies-in-private-namespaces",
        ),
        pytest.param("cgroups,namespaces", id="serial-fallback"),
    ],
)
def test_parallel_trials_never_miss_a_daemon_that_clears_its_environment(
    tmp_path: Path, disabled: str
) -> None:
    seconds = f"{300 + uuid.uuid4().int % 1000}.{os.getpid()}"  # a command line no one else has
    daemon = DAEMON.format(seconds=seconds)
    cases = [case(f"daemon-{i}", daemon, workspace={"input": "."}) for i in range(3)]
    env = {**os.environ, "AGENTIC_EVALS_DISABLE": disabled}
    try:
        report = run(fixture(tmp_path / "skill", cases, trials=2), jobs=2, environ=env)
        trials = [t for c in report.cases for t in c.trials]
        assert [t.outcome for t in trials] == ["FAIL"] * 6
        assert all([p.code for p in t.problems] == [codes.ORPHAN_PROCESS] for t in trials)
        assert all(len(t.orphan_pids_after_teardown) == 1 for t in trials)
        assert len({p for t in trials for p in t.orphan_pids_after_teardown}) == 6
        assert report.readiness != "READY"
        assert sleepers(f"sleep {seconds}") == []
        notes = report.isolation.notes if report.isolation else []
        serial = any(note.startswith("--jobs 2 ran serially") for note in notes)
        assert serial == (disabled == "cgroups,namespaces")
    finally:
        for proc in sleepers(f"sleep {seconds}"):
            proc.kill()


def shared_paths_fixture(skill: Path, isolation: str | None = None) -> Path:
    """Cases of one fixture that write and read back the same artifact paths, no workspace."""
    script = (
        'mkdir -p out && echo "{{\\"case\\": \\"{name}\\", \\"trial\\": $AGENTIC_EVALS_TRIAL}}"'
        " > out/result.json && sleep 0.{pause} && cat out/result.json"
    )
    cases = []
    for index, name in enumerate(["alpha", "beta", "gamma", "delta"]):
        checks = [
            {"path": "out/result.json", "json_pointer": "/case", "equals": name},
            {"path": "out/result.json", "exists": True},
        ]
        made = case(name, script.format(name=name, pause=index % 3), expected={"artifacts": checks})
        cases.append(made)
    top: dict[str, Any] = {} if isolation is None else {"isolation": isolation}
    return fixture(skill, cases, trials=3, **top)


def verdicts(report: Any) -> list[Any]:
    return [
        (c.name, c.outcome, c.flaky, [(t.outcome, [p.code for p in t.problems]) for t in c.trials])
        for c in report.cases
    ]


@pytest.mark.parametrize("isolation", [None, "none"], ids=["auto", "shared-tree"])
def test_shared_artifact_paths_give_the_serial_verdicts_in_parallel(
    tmp_path: Path, isolation: str | None
) -> None:
    path = shared_paths_fixture(tmp_path / "skill", isolation)
    serial = run(path)
    assert serial.readiness == "READY", verdicts(serial)
    for _ in range(3):
        assert verdicts(run(path, jobs=4)) == verdicts(serial)


def test_shared_tree_trials_never_overlap_another_trial(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"  # outside the skill tree: every trial appends to the same file
    stamp = f'echo "$AGENTIC_EVALS_CASE $AGENTIC_EVALS_TRIAL {{}} $(date +%s%N)" >> {log}'
    body = f"{stamp.format('start')}; sleep 0.15; {stamp.format('end')}"
    cases = [case(f"isolated-{i}", body) for i in range(3)]
    cases.insert(1, case("shared", body, isolation="none"))
    report = run(fixture(tmp_path / "skill", cases, trials=2), jobs=4)
    assert report.readiness == "READY"
    spans: dict[tuple[str, str], list[int]] = {}
    for line in log.read_text().splitlines():
        name, trial, _, when = line.split()
        spans.setdefault((name, trial), []).append(int(when))
    shared = [span for key, span in spans.items() if key[0] == "shared"]
    others = [span for key, span in spans.items() if key[0] != "shared"]
    assert len(shared) == 2 and len(others) == 6
    for start, end in shared:
        assert all(o_end < start or o_start > end for o_start, o_end in others)
    # Serial order across the barrier: trials of cases before it ended before, after it began after.
    first_shared = min(start for start, _ in shared)
    last_shared = max(end for _, end in shared)
    assert all(end < first_shared for (name, _), (_, end) in spans.items() if name == "isolated-0")
    assert all(
        start > last_shared
        for (name, _), (start, _) in spans.items()
        if name in ("isolated-1", "isolated-2")
    )


def test_reports_of_parallel_and_serial_runs_agree_on_isolation(tmp_path: Path) -> None:
    path = shared_paths_fixture(tmp_path / "skill")
    serial, parallel = run(path), run(path, jobs=3)
    assert serial.isolation is not None and parallel.isolation is not None
    pick = {"modes", "networks", "mechanisms", "shared_tree_trials", "warnings"}
    found = [
        json.loads(r.model_dump_json(include=pick)) for r in (parallel.isolation, serial.isolation)
    ]
    for summary in found:
        summary["warnings"] = [w for w in summary["warnings"] if not serial_note(w)]
    assert found[0] == found[1]


@pytest.mark.skipif(overlay_problem() is not None, reason=f"{overlay_problem()}")
def test_copies_asked_for_run_in_parallel_without_cgroups(tmp_path: Path) -> None:
    copied = [case(f"copy-{i}", "true", workspace={"input": "."}) for i in range(2)]
    path = fixture(tmp_path / "skill", copied, isolation="copy")
    env = {**os.environ, "AGENTIC_EVALS_DISABLE": "cgroups"}
    report = run(path, jobs=2, environ=env)
    assert report.readiness == "READY"
    assert report.isolation is not None and report.isolation.modes == {"copy": 4}
    assert not any(serial_note(note) for note in report.isolation.notes)
