"""Benchmarks of agentic-evals, run by hand: ``./run.sh bench [--rounds N] [--only a,c]``.

Every compared command is its own process, timed with ``time.perf_counter``
around ``subprocess.run`` with its output sent to /dev/null. The commands of
a figure alternate within each round and each figure reports the median over
the rounds, so that a noisy neighbour slows both sides rather than one. One
line per figure gives the values, the ratio (or MB), the bound and PASS or
FAIL; the exit status is 0 when every bound holds and 1 otherwise.

Timings never belong in the unit tests: this script is the only place they
are checked. See benchmarks/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import _gen
import isolation_bench
import trace_bench

PYTHON = sys.executable
# The console script next to the interpreter: the same venv, hence the same
# interpreter, for the CLI and for the bare-Python baselines.
CLI = str(Path(sys.executable).with_name("agentic-evals"))
FIGURES = "abcdefgh"
CORPUS_TREE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "skills-tree-2026-01"
"""The real skill tree of the shared corpus (its audit is timed when it is there)."""
GIB = 2**30
MB = 10**6  # decimal megabytes: the stricter reading of "64 MB"
STARTUP_REPEAT = 10  # start-up takes tens of ms, so each round times a batch

HISTORY_VAR = "AGENTIC_EVALS_HISTORY"
A_BOUND = 1.20
A_REPEAT = 2  # (a) subtracts two timings per side: each round takes the mean of two runs
# What any CLI built on click and pydantic pays before doing anything.
STARTUP_FLOOR = (
    "import click\nfrom pydantic import BaseModel\nclass Floor(BaseModel):\n    value: int"
)
# Every isolation and containment mechanism turned off: trials contained by the subreaper
# and process groups alone, on the shared tree, as before isolation existed.
NO_ISOLATION = "overlay,namespaces,userns,cgroups,watchdog,netns,rlimits,pdeathsig"
LATENCY_OFF = "latency"  # the AGENTIC_EVALS_DISABLE word of the runner's wake latency request
BARE_LOOP = "import subprocess\nfor _ in range({n}): subprocess.run(['true'], capture_output=True)"

# The in-process split of figure (a): one fresh interpreter, so the import
# time is the cold import a real `agentic-evals run` pays.
SPLIT_SCRIPT = """\
import importlib, json, subprocess, sys, time
from pathlib import Path
start = time.perf_counter()
load = importlib.import_module("agentic_evals.evidence.gates")
evaluate = importlib.import_module("agentic_evals.evaluation.evaluate")
imported = time.perf_counter()
loaded = load.load_fixture(Path(sys.argv[1]))
parsed = time.perf_counter()
def loop():
    began = time.perf_counter()
    for _ in range(int(sys.argv[2])):
        subprocess.run(["true"], capture_output=True)
    return time.perf_counter() - began
# Alternate which side runs first, so that neither always gets the warmer machine.
bare = loop() if sys.argv[3] == "loop-first" else None
began = time.perf_counter()
report = evaluate.evaluate(loaded).report
evaluated = time.perf_counter() - began
bare = loop() if bare is None else bare
print(json.dumps({"import": imported - start, "load": parsed - imported,
                  "evaluate": evaluated, "loop": bare,
                  "readiness": report.readiness}))
"""

# Figure (b): ru_maxrss would carry the parent's peak over fork and exec, so
# the runner records its own VmHWM (this image only) when it exits.
HWM_SCRIPT = """\
import atexit, sys
from pathlib import Path

def record():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            Path(sys.argv[1]).write_text(line.split()[1])

atexit.register(record)
from agentic_evals.cli import main
main(sys.argv[2:])
"""


class BenchError(Exception):
    """A command did not do what its figure needs, so the figure fails."""


class Skipped(BenchError):
    """The command or option a figure measures does not exist yet."""


@dataclass(frozen=True)
class Command:
    """One compared command: a name for the report, its argv and working folder."""

    name: str
    argv: list[str]
    cwd: Path
    ok_codes: frozenset[int] = frozenset({0})


@dataclass
class Bench:
    """Settings shared by the figures, and the verdicts printed so far."""

    rounds: int
    verbose: bool
    tmp: Path
    verdicts: list[bool] = field(default_factory=list)

    def emit(self, line: str, ok: bool | None) -> None:
        """Print one figure line; ``ok`` None marks an informational line."""
        if ok is not None:
            self.verdicts.append(ok)
            line = f"{line} {'PASS' if ok else 'FAIL'}"
        print(line, flush=True)

    def detail(self, name: str, values: Sequence[float], unit: str = "s") -> None:
        """With --verbose, print every round's value of one command."""
        if self.verbose:
            print(f"    {name}: " + " ".join(f"{value:.3f}" for value in values) + f" {unit}")

    def compare(self, commands: Sequence[Command], repeat: int = 1) -> list[float]:
        """Time ``commands`` alternately over the rounds; return each one's median seconds."""
        samples: list[list[float]] = [[] for _ in commands]
        for number in range(self.rounds):
            # Reverse the order every other round so that no command always
            # runs right after another (warm page cache, CPU frequency).
            order = list(range(len(commands)))
            if number % 2:
                order.reverse()
            for index in order:
                total = sum(timed(commands[index]) for _ in range(repeat))
                samples[index].append(total / repeat)
        for command, values in zip(commands, samples, strict=True):
            self.detail(command.name, values)
        return [statistics.median(values) for values in samples]


def timed(command: Command) -> float:
    """Run ``command`` once with its output discarded; return its wall time in seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        command.argv,
        cwd=command.cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in command.ok_codes:
        raise BenchError(f"{command.name} exited {done.returncode} during the timed rounds")
    return elapsed


def probe(command: Command) -> subprocess.CompletedProcess[str]:
    """Run ``command`` once, untimed, with its output captured."""
    return subprocess.run(
        command.argv,
        cwd=command.cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )


def first_line(text: str) -> str:
    """The first non-blank line of ``text``, shortened for a report line."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "no output")
    return line if len(line) <= 120 else line[:117] + "..."


def require(command: Command, missing: str | None = None, because: str = "") -> str:
    """Warm ``command`` up once and check its exit code before it is timed.

    Args:
        command: The command to probe.
        missing: Text in click's usage error (exit 2) meaning the measured
            command or option does not exist yet.
        because: The SKIPPED reason to give when ``missing`` is seen.

    Returns:
        The probe's stderr, for figures that check what the command said.

    Raises:
        Skipped: The usage error named ``missing``.
        BenchError: The command exited with a code it should not have.
    """
    done = probe(command)
    output = done.stderr + done.stdout
    if missing is not None and done.returncode == 2 and missing in output:
        raise Skipped(because)
    if done.returncode not in command.ok_codes:
        raise BenchError(f"{command.name} exited {done.returncode}: {first_line(output)!r}")
    return done.stderr


def not_measured(bench: Bench, head: str, error: BenchError, bound: str) -> None:
    """Print a figure that could not be measured; it counts as failing."""
    state = f"SKIPPED ({error})" if isinstance(error, Skipped) else f"ERROR {error}"
    bench.emit(f"{head}: {state} (bound {bound})", ok=False)


def measure_ratio(
    bench: Bench,
    head: str,
    pair: tuple[Command, Command],
    bound: float | None,
    warm_up: bool = True,
    repeat: int = 1,
) -> None:
    """Print the ratio of the medians of ``pair`` (first over second) against ``bound``.

    ``bound=None`` prints the figure for information only.
    """
    try:
        if warm_up:
            for command in pair:
                require(command)
        num, den = bench.compare(pair, repeat)
    except BenchError as error:
        not_measured(bench, head, error, "none" if bound is None else f"<= {bound:.2f}x")
        return
    ratio = num / den
    text = f"{head}: {num:.3f} s / {den:.3f} s = {ratio:.2f}x"
    if bound is None:
        bench.emit(text, None)
        return
    bench.emit(f"{text} (bound <= {bound:.2f}x)", ratio <= bound)


def measure_wall(bench: Bench, head: str, command: Command, bound: float) -> None:
    """Print the median wall time of an already warmed-up ``command`` against ``bound``."""
    try:
        (seconds,) = bench.compare([command])
    except BenchError as error:
        not_measured(bench, head, error, f"< {bound:.2f} s")
        return
    bench.emit(f"{head}: {seconds:.3f} s (bound < {bound:.2f} s)", seconds < bound)


def run_command(name: str, fixture: Path, report: Path, *options: str) -> Command:
    """``agentic-evals run FIXTURE -o REPORT [OPTIONS]``, run from the fixture's folder."""
    argv = [CLI, "run", str(fixture), "-o", str(report), *options]
    return Command(name, argv, fixture.parent)


def figure_a(bench: Bench) -> None:
    """(a) Runner overhead: run 200 cases x 3 trials of `true` against a bare Python loop.

    The commands are whole processes timed in the same rounds: the run and
    the bare loop at 600 trials, and each again with a single trial. What each
    side costs per trial is its 600-trial time less its 1-trial time, so the
    bound is on what ``run`` adds to every trial (isolating, containing,
    spawning, supervising, judging, the report), through the real CLI. The
    bounded cases declare ``deterministic``: trials of live cases are also
    traced, a cost that figure (h) bounds on its own and that is printed
    here beside it. The fixed start-up that the difference removes is
    printed too, with the floor that importing click and building one
    pydantic model sets for any tool built on them.
    """
    cases, trials = 200, 3
    folder = bench.tmp / "a"
    kept = "deterministic"
    fixture = _gen.command_fixture(folder / "true.json", ["true"], cases, trials, 0, kept)
    single = _gen.command_fixture(folder / "one.json", ["true"], 1, 1, 0, kept)
    live = _gen.command_fixture(folder / "live.json", ["true"], cases, trials)
    live_single = _gen.command_fixture(folder / "live-one.json", ["true"], 1, 1)
    spawns = cases * trials
    commands = [
        run_command("run", fixture, folder / "report.json"),
        run_command("run 1x1", single, folder / "one-report.json"),
        Command("bare loop", [PYTHON, "-c", BARE_LOOP.format(n=spawns)], folder),
        Command("bare loop 1", [PYTHON, "-c", BARE_LOOP.format(n=1)], folder),
        Command("floor", [PYTHON, "-c", STARTUP_FLOOR], folder),
        *(
            Command(f"{c.name} without isolation", ["env", f"AGENTIC_EVALS_DISABLE={NO_ISOLATION}",
                                                    *c.argv], folder)
            for c in (run_command("run", fixture, folder / "plain.json"),
                      run_command("run 1x1", single, folder / "one-plain.json"))
        ),
        run_command("run live", live, folder / "live-report.json"),
        run_command("run live 1x1", live_single, folder / "live-one-report.json"),
        # A single trial never makes the wake latency request: "run 1x1" is its partner.
        Command("run without the wake latency request",
                ["env", f"AGENTIC_EVALS_DISABLE={LATENCY_OFF}",
                 *run_command("run", fixture, folder / "awake.json").argv], folder),
    ]  # fmt: skip
    head = f"(a) run {cases}x{trials} true vs bare loop, per trial"
    try:
        for command in commands:
            require(command)
        timings = bench.compare(commands, repeat=A_REPEAT)
    except BenchError as error:
        not_measured(bench, head, error, f"<= {A_BOUND:.2f}x")
        return
    run, run_one, bare, bare_one, floor, plain, plain_one, traced, traced_one, asleep = timings
    per_run, per_bare = (run - run_one) / (spawns - 1), (bare - bare_one) / (spawns - 1)
    ratio = per_run / per_bare
    bench.emit(
        f"{head}: ({run:.3f} - {run_one:.3f}) / ({bare:.3f} - {bare_one:.3f}) s = "
        f"{per_run * 1e6:.0f} us / {per_bare * 1e6:.0f} us = {ratio:.2f}x "
        f"(bound <= {A_BOUND:.2f}x)",
        ratio <= A_BOUND,
    )
    bench.emit(
        f"(a) info: start-up, run 1x1 vs bare loop of 1: {run_one:.3f} s / {bare_one:.3f} s; "
        f"floor of click + one pydantic model: {floor:.3f} s",
        None,
    )
    per_plain = (plain - plain_one) / (spawns - 1)
    bench.emit(
        f"(a) info: per trial with every isolation mechanism on (the default) vs all off: "
        f"{per_run * 1e6:.0f} us / {per_plain * 1e6:.0f} us = {per_run / per_plain:.2f}x",
        None,
    )
    per_asleep = (asleep - run_one) / (spawns - 1)
    bench.emit(
        f"(a) info: per trial without the wake latency request ({LATENCY_OFF} off, "
        f"docs/ci.md) vs bare loop: {per_asleep * 1e6:.0f} us / {per_bare * 1e6:.0f} us = "
        f"{per_asleep / per_bare:.2f}x",
        None,
    )
    per_traced = (traced - traced_one) / (spawns - 1)
    bench.emit(
        f"(a) info: per trial of the same cases declared live (traced, see (h)) vs bare loop: "
        f"{per_traced * 1e6:.0f} us / {per_bare * 1e6:.0f} us = {per_traced / per_bare:.2f}x",
        None,
    )
    bench.emit(
        f"(a) info: end to end, run {cases}x{trials} vs bare loop: "
        f"{run:.3f} s / {bare:.3f} s = {run / bare:.2f}x",
        None,
    )
    in_process_split(bench, fixture, spawns)


def in_process_split(bench: Bench, fixture: Path, spawns: int) -> None:
    """(a) for information: the run loop against the bare loop inside one fresh process.

    ``evaluate()`` against the bare ``subprocess.run`` loop, timed in the same
    process, alternating: the trials without the CLI, the report file or
    start-up.
    """
    parts: dict[str, list[float]] = {"import": [], "load": [], "evaluate": [], "loop": []}
    verdicts = set()
    for index in range(bench.rounds):
        order = "loop-first" if index % 2 else "evaluate-first"
        command = Command(
            "split", [PYTHON, "-c", SPLIT_SCRIPT, str(fixture), str(spawns), order], fixture.parent
        )
        done = probe(command)
        if done.returncode != 0:
            bench.emit(f"(a) info: in-process split failed: {first_line(done.stderr)!r}", None)
            return
        values = json.loads(done.stdout)
        verdicts.add(values.pop("readiness"))
        for key, value in values.items():
            parts[key].append(value)
    for key, values in parts.items():
        bench.detail(key, values)
    median = {key: statistics.median(values) for key, values in parts.items()}
    bench.emit(
        f"(a) info: in one process, evaluate() of {spawns} trials vs bare loop: "
        f"{median['evaluate']:.3f} s / {median['loop']:.3f} s = "
        f"{median['evaluate'] / median['loop']:.2f}x (readiness {'/'.join(sorted(verdicts))}); "
        f"cold import of evidence.gates + evaluation.evaluate {median['import']:.3f} s",
        None,
    )


def figure_b(bench: Bench) -> None:
    """(b) Peak memory of the runner while a case prints 1 GiB."""
    folder = bench.tmp / "b"
    fixture = _gen.command_fixture(folder / "big.json", ["head", "-c", "1G", "/dev/zero"], 1, 2)
    head = "(b) run 1x2 'head -c 1G /dev/zero': runner peak RSS (VmHWM)"
    peaks: list[float] = []
    try:
        for number in range(bench.rounds):
            side, report = folder / f"hwm-{number}", folder / f"report-{number}.json"
            options = ["run", str(fixture), "-o", str(report), "--timeout-seconds", "600"]
            command = Command("run", [PYTHON, "-c", HWM_SCRIPT, str(side), *options], folder)
            require(command)
            if not side.exists():
                raise BenchError("the runner exited without recording VmHWM")
            peaks.append(int(side.read_text()) * 1024 / MB)
            check_big_report(report)
    except BenchError as error:
        not_measured(bench, head, error, "< 64 MB")
        return
    bench.detail("VmHWM", peaks, "MB")
    # Memory is not noise-driven like time, so the worst round is the figure.
    peak = max(peaks)
    text = (
        f"{head}: {peak:.1f} MB max, {statistics.median(peaks):.1f} MB median (bound < 64 MB); "
        f"report: stdout total_bytes == 2**30, truncated true"
    )
    bench.emit(text, peak < 64)


def check_big_report(report: Path) -> None:
    """Check that every trial of figure (b)'s report counted 1 GiB and truncated it."""
    try:
        document = json.loads(report.read_text(encoding="utf-8"))
        stats = [trial["stdout_stats"] for case in document["cases"] for trial in case["trials"]]
        seen = [(entry["total_bytes"], entry["truncated"]) for entry in stats]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BenchError(f"unreadable report {report.name}: {error!r}") from None
    if len(seen) != 2 or any(seen_entry != (GIB, True) for seen_entry in seen):
        raise BenchError(f"report stdout (total_bytes, truncated) per trial: {seen}")


def figure_c(bench: Bench) -> None:
    """(c) Parallel trials: --jobs 4 on sleeping cases, --jobs 2 on `true` cases."""
    folder = bench.tmp / "c"
    sleepy = _gen.command_fixture(folder / "sleep.json", ["sleep", "0.2"], 40, 2)
    quick = _gen.command_fixture(folder / "true.json", ["true"], 200, 3)
    heads = (
        "(c) run 40x2 'sleep 0.2' --jobs 4 vs --jobs 1",
        "(c) run 200x3 true --jobs 2 vs --jobs 1",
    )
    tiny = _gen.command_fixture(folder / "tiny.json", ["true"], 1, 2)
    try:
        require(
            run_command("run --jobs 2", tiny, folder / "tiny-report.json", "--jobs", "2"),
            missing="No such option",
            because="run has no --jobs yet",
        )
    except BenchError as error:
        for head, bound in zip(heads, ("<= 0.30x", "<= 1.00x"), strict=True):
            not_measured(bench, head, error, bound)
        return
    jobs = [
        run_command(f"--jobs {n}", fixture, folder / f"report-{fixture.stem}-{n}.json", "--jobs", n)
        for fixture, n in ((sleepy, "4"), (sleepy, "1"), (quick, "2"), (quick, "1"))
    ]
    # No warm-up for the sleeping fixture: sleeping warms nothing, and one
    # untimed --jobs 1 pass would add 16 s.
    measure_ratio(bench, heads[0], (jobs[0], jobs[1]), 0.30, warm_up=False)
    measure_ratio(bench, heads[1], (jobs[2], jobs[3]), 1.00)


def figure_d(bench: Bench) -> None:
    """(d) validate 1,000 fixtures (one folder, then 1,000 paths); audit-skills 500 skills."""
    count, cases = 1000, 5
    folder = bench.tmp / "d"
    paths = _gen.validation_corpus(folder / "corpus", count, cases)
    what = f"(d) validate {count} fixtures x {cases} cases"
    as_folder = Command("validate FOLDER", [CLI, "validate", "corpus"], folder)
    relative = [str(path.relative_to(folder)) for path in paths]
    as_paths = Command(f"validate {count} paths", [CLI, "validate", *relative], folder)
    validate_folder(bench, f"{what} as one folder", as_folder, count)
    try:
        require(as_paths)
    except BenchError as error:
        not_measured(bench, f"{what} as {count} paths", error, "< 1.00 s")
    else:
        measure_wall(bench, f"{what} as {count} paths", as_paths, 1.0)
    audit_skills(bench, folder)
    audit_corpus(bench, folder)


def validate_folder(bench: Bench, head: str, command: Command, count: int) -> None:
    """(d) validate with one folder argument that holds ``count`` fixtures."""
    try:
        said = require(command)
    except BenchError as error:
        rejected = BenchError(f"the folder argument was rejected: {error}")
        not_measured(bench, head, rejected, "< 1.00 s")
        return
    # A folder that is accepted but silently skipped would time nothing.
    valid = sum(line.endswith(": valid") for line in said.splitlines())
    if valid != count:
        skipped = BenchError(f"the folder was accepted but {valid} of {count} fixtures said valid")
        not_measured(bench, head, skipped, "< 1.00 s")
        return
    measure_wall(bench, head, command, 1.0)


def audit_skills(bench: Bench, folder: Path) -> None:
    """(d) audit-skills over a generated tree of 500 skills."""
    skills = 500
    _gen.skill_tree(folder / "skills", skills)
    head = f"(d) audit-skills of a {skills}-skill tree"
    # An audit that finds problems may well exit 1; both mean it ran.
    audit = Command("audit-skills", [CLI, "audit-skills", "skills"], folder, frozenset({0, 1}))
    try:
        require(audit, missing="No such command", because="no audit-skills command yet")
    except BenchError as error:
        not_measured(bench, head, error, "< 2.00 s")
        return
    measure_wall(bench, head, audit, 2.0)


def audit_corpus(bench: Bench, folder: Path) -> None:
    """(d) audit-skills over the real tree of the shared corpus, as is and scaffolded x6."""
    head = f"(d) audit-skills of the shared corpus ({CORPUS_TREE.name})"
    if not CORPUS_TREE.is_dir():
        not_measured(bench, head, Skipped(f"no corpus at {CORPUS_TREE}"), "< 2.00 s")
        return
    # The corpus's skills have findings: an audit that exits 1 ran all the same.
    either = frozenset({0, 1})
    audit = Command("audit-skills corpus", [CLI, "audit-skills", str(CORPUS_TREE)], folder, either)
    require(audit)
    measure_wall(bench, head, audit, 2.0)
    # Scaffolded, then copied six times: every skill now has a fixture to load and gate.
    tree = folder / "corpus-tree"
    shutil.copytree(CORPUS_TREE, tree, symlinks=True)
    require(Command("apply-scaffolds", [CLI, "apply-scaffolds", "corpus-tree", "--write"], folder))
    big = folder / "corpus-x6"
    for copy in range(6):
        for skill in tree.iterdir():
            if skill.is_dir():
                shutil.copytree(skill, big / f"{skill.name}-{copy}", symlinks=True)
    count = sum(1 for skill in big.iterdir() if skill.is_dir())
    scaled = Command("audit-skills x6", [CLI, "audit-skills", "corpus-x6"], folder, either)
    require(scaled)
    head = f"(d) audit-skills of the scaffolded corpus x6 ({count} skills)"
    measure_wall(bench, head, scaled, 2.0)


def figure_e(bench: Bench) -> None:
    """(e) Start-up: `agentic-evals --help` against `python -c pass`."""
    folder = bench.tmp
    helped = Command("agentic-evals --help", [CLI, "--help"], folder)
    bare = Command("python -c pass", [PYTHON, "-c", "pass"], folder)
    head = f"(e) start-up agentic-evals --help vs python -c pass (mean of {STARTUP_REPEAT})"
    measure_ratio(bench, head, (helped, bare), 3.0, repeat=STARTUP_REPEAT)
    # For information: what importing click alone costs on the same interpreter, and the
    # `python3` found on PATH (here possibly a version-manager shim, slower than the binary).
    clicked = Command("import click", [PYTHON, "-c", "import click"], folder)
    head = f"(e) info: python -c 'import click' vs python -c pass (mean of {STARTUP_REPEAT})"
    measure_ratio(bench, head, (clicked, bare), None, repeat=STARTUP_REPEAT)
    if shutil.which("python3"):
        path_python = Command("python3 -c pass", ["python3", "-c", "pass"], folder)
        head = (
            f"(e) info: agentic-evals --help vs python3 on PATH -c pass (mean of {STARTUP_REPEAT})"
        )
        measure_ratio(bench, head, (helped, path_python), None, repeat=STARTUP_REPEAT)


RUNNERS: dict[str, Callable[[Bench], None]] = {
    "a": figure_a,
    "b": figure_b,
    "c": figure_c,
    "d": figure_d,
    "e": figure_e,
    "f": lambda bench: isolation_bench.figure_f(bench, sys.modules[__name__]),
    "g": lambda bench: isolation_bench.figure_g(bench, sys.modules[__name__]),
    "h": lambda bench: trace_bench.figure_h(bench, sys.modules[__name__]),
}


def header(rounds: int) -> str:
    """One line naming the machine, the interpreter, the date and the rounds."""
    from agentic_evals.clock import utc_now  # the project's one reader of the clock

    # sched_getaffinity is what nproc prints: the CPUs this process may use.
    cpus = len(os.sched_getaffinity(0))
    return (
        f"agentic-evals bench: nproc {cpus}, Python {platform.python_version()} ({PYTHON}), "
        f"{utc_now():%Y-%m-%d %H:%M} UTC, {rounds} rounds"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse ``--rounds N``, ``--only a,c`` and ``--verbose``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per figure (5)")
    parser.add_argument("--only", default=",".join(FIGURES), help="figures to run, e.g. a,c")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every round's values")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    wanted = {part.strip() for part in args.only.replace(",", " ").split()}
    if not wanted or not wanted <= set(FIGURES):
        parser.error(f"--only takes figures among {','.join(FIGURES)}")
    args.only = [letter for letter in FIGURES if letter in wanted]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the selected figures; return 0 when every bound holds, else 1."""
    args = parse_args(argv)
    if not Path(CLI).exists():
        print(f"bench: {CLI} not found; run it through ./run.sh bench", file=sys.stderr)
        return 2
    print(header(args.rounds), flush=True)
    with tempfile.TemporaryDirectory(prefix="agentic-evals-bench-") as tmp:
        # Every run records its report, as by default, but in a history of the bench's own
        # (removed with the folder): the user's history is never written.
        os.environ[HISTORY_VAR] = f"sqlite:///{Path(tmp) / 'history.sqlite'}"
        bench = Bench(args.rounds, args.verbose, Path(tmp))
        for letter in args.only:
            RUNNERS[letter](bench)
    held = bench.verdicts.count(True)
    print(f"bounds held: {held}/{len(bench.verdicts)}", flush=True)
    return 0 if held == len(bench.verdicts) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        # subprocess.run has already killed the child; the temporary folder is gone.
        sys.exit(130)
