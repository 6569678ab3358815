"""Benchmark figures of trial isolation, for bench.py: (f) the cost of a private view, (g) -j 4.

Both take bench.py's helpers as ``commands`` (the module itself), so that
the timing protocol stays in one place.

(f) A generated skill tree of 236 MB in 20,000 files, and one case whose
trials each write one file. What a trial's view costs, mounting a fresh
overlay (the last trial wrote to its own) and reading the changes from its
upper layer, is timed in a fresh interpreter around each trial, as the
runner does it, without the write itself; the median per trial is printed
beside ``cp -a`` of the same tree, which is what a copy costs before any
hashing. For information: the same trials through ``run``, with an overlay
and on the shared tree, and with ``isolation: copy`` of the tree as a workspace.

(g) The project's own evaluation, ``./run.sh run fixtures/agentic_eval.json
-j 4``, run 20 times: every run must give the serial run's verdicts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import _gen

VIEW_BOUND_SECONDS = 0.050
TREE_FILES = 20_000
TREE_BYTES = 236 * 10**6
VIEW_TRIALS = 10
PARALLEL_RUNS = 20
REPO = Path(__file__).resolve().parents[1]


def generate_tree(root: Path) -> Path:
    """Write the 236 MB, 20,000-file tree under ``root/data`` (deterministic content)."""
    data = root / "data"
    size = TREE_BYTES // TREE_FILES
    block = bytes(range(256)) * (size // 256 + 1)
    for number in range(TREE_FILES):
        folder = data / f"d{number // 500:03d}"
        if number % 500 == 0:
            folder.mkdir(parents=True)
        (folder / f"f{number:05d}.bin").write_bytes(block[number % 256 : number % 256 + size])
    return data


def view_fixture(root: Path, isolation: str, trials: int) -> Path:
    """One case writing one file per trial, run in the tree with ``isolation``."""
    case: dict[str, Any] = {
        "name": "writes-one-file",
        "type": "positive",
        "command": ["bash", "-c", "echo $AGENTIC_EVALS_TRIAL > one-file.txt"],
        "expected": {"exit_code": 0},
    }
    if isolation == "copy":
        case["workspace"] = {"input": "data"}
    document = _gen.fixture_document([case], trials)
    document["isolation"] = isolation
    return _gen.write_json(root / f"{isolation}.json", document)


# Run in a fresh interpreter: a trial thread's view of the tree, opened, written to, its
# changes read, and released, as the runner does for every trial; the write is not counted.
VIEW_SCRIPT = """\
import json, statistics, sys, threading, time
from pathlib import Path
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.runner.isolation.run import RunIsolation
path, trials = Path(sys.argv[1]), int(sys.argv[2])
fixture = load_fixture(path).model
isolation = RunIsolation.start(fixture, path.parent, path.parent, "bench", frozenset())
spent, changes = [], []
def trials_in_a_thread():
    for number in range(trials):
        began = time.perf_counter()
        view = isolation.open_view(fixture.cases[0], None)
        opened = time.perf_counter()
        (view.cwd / "one-file.txt").write_text(str(number))
        written = time.perf_counter()
        changes.append(view.changes().model_dump())
        view.finish(False)
        spent.append((opened - began) + (time.perf_counter() - written))
worker = threading.Thread(target=trials_in_a_thread)
worker.start()
worker.join()
isolation.close()
print(json.dumps({"median": statistics.median(spent), "changes": changes[-1],
                  "mode": isolation.planned(fixture.cases[0]).mode}))
"""


def figure_f(bench: Any, commands: Any) -> None:
    """(f) per-trial setup and change detection with an overlay, beside ``cp -a``."""
    root = bench.tmp / "f"
    root.mkdir()
    tree = generate_tree(root)
    bound = f"< {VIEW_BOUND_SECONDS * 1000:.0f} ms"
    head = (
        f"(f) overlay view of a {TREE_BYTES // 10**6} MB / {TREE_FILES} file tree, "
        "setup + change detection per trial (one file written)"
    )
    overlay = view_fixture(root, "overlay", VIEW_TRIALS)
    copy = commands.Command("cp -a", ["bash", "-c", f"cp -a {tree} copied && rm -rf copied"], root)
    try:
        views = [view_cost(overlay, commands) for _ in range(bench.rounds)]
        (copied,) = bench.compare([copy])
    except commands.BenchError as error:
        commands.not_measured(bench, head, error, bound)
        return
    bench.detail("view", views)
    seconds = sorted(views)[len(views) // 2]
    bench.emit(
        f"{head}: {seconds * 1000:.1f} ms beside cp -a (and rm) of the tree {copied:.3f} s "
        f"= {copied / seconds:.0f}x (bound {bound})",
        seconds < VIEW_BOUND_SECONDS,
    )
    through_the_cli(bench, commands, root)
    copy_mode_info(bench, commands, root)


def view_cost(fixture: Path, commands: Any) -> float:
    """One round of :data:`VIEW_SCRIPT`: the median setup plus change detection, in seconds."""
    argv = [commands.PYTHON, "-c", VIEW_SCRIPT, str(fixture), str(VIEW_TRIALS)]
    done = commands.probe(commands.Command("view", argv, fixture.parent))
    if done.returncode != 0:
        raise commands.BenchError(
            f"the view measurement failed: {commands.first_line(done.stderr)}"
        )
    found = json.loads(done.stdout)
    if found["mode"] != "overlay" or found["changes"]["added"] != ["one-file.txt"]:
        raise commands.BenchError(f"no overlay here, or wrong changes: {found}")
    return float(found["median"])


def through_the_cli(bench: Any, commands: Any, root: Path) -> None:
    """(f) info: the same trials through ``run``, overlay against the shared tree."""
    runs = [
        commands.run_command(f"isolation {mode}", view_fixture(root, mode, VIEW_TRIALS),
                             root / f"report-{mode}.json")
        for mode in ("overlay", "none")
    ]  # fmt: skip
    try:
        for command in runs:
            commands.require(command)
        check_modes(root, VIEW_TRIALS, commands)
        overlay, shared = bench.compare(runs)
    except commands.BenchError as error:
        bench.emit(f"(f) info: through run: {error}", None)
        return
    bench.emit(
        f"(f) info: run of {VIEW_TRIALS} such trials, overlay vs shared tree: {overlay:.3f} s / "
        f"{shared:.3f} s ({(overlay - shared) / VIEW_TRIALS * 1000:+.1f} ms per trial)",
        None,
    )


def check_modes(root: Path, trials: int, commands: Any) -> None:
    """The overlay run really ran overlays (a fallback would make the figure meaningless)."""
    report = json.loads((root / "report-overlay.json").read_text())
    modes = report.get("isolation", {}).get("modes", {})
    if modes != {"overlay": trials}:
        raise commands.BenchError(f"the overlay run ran {modes} (overlays unavailable here?)")


def copy_mode_info(bench: Any, commands: Any, root: Path) -> None:
    """(f) info: the same trials with ``isolation: copy`` of the tree as their workspace."""
    trials = 2
    command = commands.run_command(
        "isolation copy", view_fixture(root, "copy", trials), root / "report-copy.json"
    )
    try:
        (seconds,) = bench.compare([command])
    except commands.BenchError as error:
        bench.emit(f"(f) info: isolation copy: {error}", None)
        return
    bench.emit(f"(f) info: isolation copy of the tree as a workspace: {seconds / trials:.3f} s "
               "per trial", None)  # fmt: skip


def verdicts(report: dict[str, Any]) -> list[Any]:
    """Readiness, counts, and every case's and trial's outcome with its problem codes."""
    cases = [
        (c["name"], c["outcome"], [(t["outcome"], [p["code"] for p in t["problems"]])
                                   for t in c["trials"]])
        for c in report["cases"]
    ]  # fmt: skip
    return [report["readiness"], report["outcome_counts"], cases]


def own_run(output: Path, *options: str) -> dict[str, Any]:
    done = subprocess.run(
        ["./run.sh", "run", "fixtures/agentic_eval.json", "-o", str(output), *options],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if not output.is_file():
        raise RuntimeError(f"run {' '.join(options)} wrote no report: {done.stderr[-300:]}")
    report = json.loads(output.read_text())
    assert isinstance(report, dict)
    return report


def figure_g(bench: Any, commands: Any) -> None:
    """(g) 20 runs of the own evaluation with -j 4, each against the serial run's verdicts."""
    del commands
    head = f"(g) ./run.sh run fixtures/agentic_eval.json -j 4, {PARALLEL_RUNS} runs vs serial"
    folder = bench.tmp / "g"
    folder.mkdir()
    serial = verdicts(own_run(folder / "serial.json"))
    same = 0
    for number in range(PARALLEL_RUNS):
        found = verdicts(own_run(folder / f"parallel-{number}.json", "-j", "4"))
        same += found == serial
        if found != serial and bench.verbose:
            print(f"    run {number + 1} differs: {json.dumps(found)[:300]}", file=sys.stderr)
    ready = serial[0] == "READY"
    bench.emit(
        f"{head}: {same}/{PARALLEL_RUNS} equal (serial readiness {serial[0]}) "
        f"(bound {PARALLEL_RUNS}/{PARALLEL_RUNS})",
        same == PARALLEL_RUNS and ready,
    )
    shutil.rmtree(folder, ignore_errors=True)
