"""must_exercise, traced (SPEC 3.5): real processes under the real tracer.

Each test would pass if the rule it pins were dropped: a substring check
instead of tracing would satisfy the echo cases, counting the top-level exec
would satisfy ``bash sub/tool.sh``, counting any argument would satisfy
``/bin/echo``, plain ``strace -f`` as the leader would turn the escaped
``sleep`` into a timeout, and a tracer left unreaped shows up as a process.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from agentic_evals.contract.layout import layout_for
from agentic_evals.contract.models import Case
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.redact import Redactor
from agentic_evals.reports.model import TrialReport
from agentic_evals.runner import trace_strace
from agentic_evals.runner.plan import CasePlan, TrialSettings
from agentic_evals.runner.process import enable_subreaper, run_process
from agentic_evals.runner.trace import UNAVAILABLE, ExecTrace
from agentic_evals.runner.trace_match import runs, script_of
from agentic_evals.runner.trace_parse import parse_strace
from agentic_evals.runner.trace_strace import StraceTracer
from agentic_evals.runner.trace_types import Exec
from agentic_evals.runner.trials import run_trial

TOOL = "sub/tool.sh"
LONG = 120.0  # a timeout no healthy test comes near
STRACE_PROBLEM = StraceTracer().problem()
needs_strace = pytest.mark.skipif(
    STRACE_PROBLEM is not None, reason=f"strace cannot trace here: {STRACE_PROBLEM}"
)


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    """A skill directory with an executable ``sub/tool.sh`` that prints a marker."""
    (tmp_path / "sub").mkdir()
    tool = tmp_path / TOOL
    tool.write_text('#!/bin/bash\nread -r marker <<< tool-ran\necho "$marker"\n')
    tool.chmod(0o755)
    return tmp_path


@pytest.fixture(autouse=True)
def _no_tracer_left() -> Iterator[None]:
    yield
    assert tracers_left() == []


def tracers_left() -> list[int]:
    """Tracer processes (alive or zombie) still below this test process."""
    return [p.pid for p in psutil.Process().children() if p.name().startswith("ae-trace-")]


def trial(
    skill: Path,
    command: list[str],
    must_exercise: list[str] | None = None,
    *,
    timeout: float = LONG,
) -> TrialReport:
    """Run trial 1 of a case through the runner's own trial code."""
    case = Case.model_validate(
        {
            "name": "traced",
            "type": "positive",
            "command": command,
            "expected": {"exit_code": 0},
            "must_exercise": [TOOL] if must_exercise is None else must_exercise,
            "timeout_seconds": timeout,
        }
    )
    settings = TrialSettings(
        run_id=uuid.uuid4().hex,
        layout=layout_for(skill, None),
        base_env=dict(os.environ),
        default_timeout=LONG,
        grace_seconds=1.0,
        stream_cap=1 << 20,
    )
    enable_subreaper()
    plan = CasePlan(case, "probe::traced", skill, settings.base_env, Redactor({}), None)
    return run_trial(plan, 1, settings, preexisting=set())


def codes(run: TrialReport) -> list[str]:
    return [p.code for p in run.problems]


@needs_strace
def test_bash_c_running_the_script_satisfies_the_entry(skill: Path) -> None:
    run = trial(skill, ["bash", "-c", f"bash {TOOL}"])
    assert (run.outcome, codes(run)) == ("PASS", [])
    assert run.trace_method == "strace"
    assert run.traced_execs == 1
    assert run.stdout == "tool-ran\n"


@needs_strace
def test_echo_that_mentions_the_script_is_not_exercised(skill: Path) -> None:
    run = trial(skill, ["bash", "-c", f"echo would run {TOOL}"])
    assert (run.outcome, codes(run)) == ("FAIL", ["NOT_EXERCISED"])
    message = run.problems[0].message
    assert repr(TOOL) in message and "strace" in message


@needs_strace
@pytest.mark.parametrize(
    "command",
    [
        ["bash", "-c", f"/bin/echo {TOOL}"],  # a later exec (bash execs its last command)
        ["bash", "-c", f"/bin/echo {TOOL}; true"],  # a child's exec
        ["/bin/echo", TOOL],  # the top-level exec
    ],
)
def test_an_exec_that_only_passes_the_script_as_an_argument_does_not_count(
    skill: Path, command: list[str]
) -> None:
    # Decision: an argument counts only as an interpreter's script, never for /bin/echo.
    run = trial(skill, command)
    assert (run.outcome, codes(run)) == ("FAIL", ["NOT_EXERCISED"])


@needs_strace
def test_a_descendant_of_a_python_program_satisfies_the_entry(skill: Path) -> None:
    program = f"import subprocess; subprocess.run(['bash', '{TOOL}'], check=True)"
    run = trial(skill, [sys.executable, "-c", program])
    assert (run.outcome, codes(run)) == ("PASS", [])


@needs_strace
def test_the_cases_own_top_level_exec_counts_for_nothing(skill: Path) -> None:
    own = trial(skill, ["bash", TOOL])
    assert (own.outcome, codes(own)) == ("FAIL", ["NOT_EXERCISED"])
    # The same process exec'ing it afterwards does count.
    later = trial(skill, ["bash", "-c", f"exec bash {TOOL}"])
    assert (later.outcome, codes(later)) == ("PASS", [])


@needs_strace
def test_every_entry_is_judged_and_each_missing_one_named(skill: Path) -> None:
    run = trial(skill, ["bash", "-c", f"bash {TOOL}; echo psql"], [TOOL, "psql"])
    assert codes(run) == ["NOT_EXERCISED"]
    assert "'psql'" in run.problems[0].message


def test_without_a_tracer_the_trial_is_blocked_not_passed(
    skill: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trace_strace, "STRACE_PROGRAM", "strace-hidden-by-the-test")
    run = trial(skill, ["bash", "-c", f"bash {TOOL}"])
    assert (run.outcome, codes(run)) == ("BLOCKED", ["TRACE_UNAVAILABLE"])
    assert run.trace_method == UNAVAILABLE
    message = run.problems[0].message
    assert "strace" in message and "not found" in message
    assert run.stdout == "tool-ran\n"  # the command still ran; only the proof is missing


def test_a_tracer_that_cannot_ptrace_is_unavailable(
    skill: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    denied = skill / "fake-strace"
    message = "strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted"
    denied.write_text(f"#!/bin/sh\necho '{message}' >&2\nexit 1\n")
    denied.chmod(0o755)
    monkeypatch.setattr(trace_strace, "STRACE_PROGRAM", str(denied))
    run = trial(skill, ["bash", "-c", f"bash {TOOL}"])
    assert (run.outcome, codes(run)) == ("BLOCKED", ["TRACE_UNAVAILABLE"])
    assert "Operation not permitted" in run.problems[0].message


def test_cases_without_must_exercise_run_untraced(skill: Path) -> None:
    env = {"PATH": os.environ["PATH"]}
    trace = ExecTrace.start([], ["bash", "-c", "true"], env, cwd=skill, executable="/x/bash")
    assert (trace.argv, trace.env, trace.executable) == (("bash", "-c", "true"), env, "/x/bash")
    run = trial(skill, ["bash", "-c", f"bash {TOOL}"], [])
    assert (run.outcome, run.trace_method, run.traced_execs) == ("PASS", None, None)


def untraced_and_traced(skill: Path, command: list[str]) -> tuple[TrialReport, TrialReport]:
    return trial(skill, command, []), trial(skill, command)


@needs_strace
def test_exit_code_output_and_signal_death_are_unchanged(skill: Path) -> None:
    command = ["bash", "-c", f"bash {TOOL}; echo out; echo err >&2; exit 7"]
    plain, traced = untraced_and_traced(skill, command)
    assert traced.trace_method == "strace" and codes(traced) == ["EXIT_CODE"] == codes(plain)
    for field in ("exit_code", "term_signal", "stdout", "stderr"):
        assert getattr(traced, field) == getattr(plain, field), field
    plain, traced = untraced_and_traced(skill, ["bash", "-c", f"bash {TOOL}; kill -TERM $$"])
    assert (traced.exit_code, traced.term_signal) == (143, 15)
    assert (plain.exit_code, plain.term_signal) == (143, 15)


@needs_strace
def test_the_traced_program_is_still_the_leader_of_its_own_session(skill: Path) -> None:
    # A group kill from the program (kill -- -$$) needs it to lead its group, as untraced.
    program = (
        f"import os, subprocess; subprocess.run(['bash', '{TOOL}']); "
        "print(os.getpid() == os.getpgrp() == os.getsid(0), os.getppid())"
    )
    run = trial(skill, [sys.executable, "-c", program])
    assert run.stdout == f"tool-ran\nTrue {os.getpid()}\n"


@needs_strace
def test_an_escaped_descendant_is_still_an_orphan_not_a_timeout(skill: Path) -> None:
    command = ["bash", "-c", f"setsid sleep 60 & echo $!; bash {TOOL}"]
    plain, traced = untraced_and_traced(skill, command)
    for run in (plain, traced):
        assert (run.outcome, codes(run)) == ("FAIL", ["ORPHAN_PROCESS"])
        assert run.exit_code == 0 and run.timed_out is False
        escaped = int(run.stdout.split()[0])
        assert run.orphan_pids_after_teardown == [escaped]
        assert not psutil.pid_exists(escaped)


@needs_strace
def test_a_timeout_under_tracing_still_kills_everything(skill: Path) -> None:
    run = trial(skill, ["bash", "-c", f"bash {TOOL}; sleep 60 & echo $!; wait"], timeout=1.0)
    assert run.timed_out is True and run.exit_code is None
    assert codes(run) == ["TIMEOUT", "EXIT_CODE"]  # the tool ran: no NOT_EXERCISED
    assert not psutil.pid_exists(int(run.stdout.split()[-1]))


@needs_strace
def test_a_program_that_cannot_start_is_exec_failed_as_untraced(skill: Path) -> None:
    garbage = skill / "not-a-program"
    garbage.write_text("this is no executable format\n")
    garbage.chmod(0o755)
    for command, found in (
        (["./not-a-program", TOOL], ["EXEC_FAILED"]),
        # A program not on PATH also says which PATH the trial had.
        (["no-such-program-anywhere", TOOL], ["EXEC_FAILED", "MISSING_DEPENDENCY"]),
    ):
        plain, traced = untraced_and_traced(skill, command)
        assert codes(traced) == found == codes(plain)
        assert traced.problems == plain.problems


@needs_strace
def test_the_tracer_does_not_count_as_a_process_of_a_serial_trial(skill: Path) -> None:
    # Serial runs attribute every new runner child to the trial unless it names another.
    enable_subreaper()
    env = {**os.environ, "AGENTIC_EVALS_RUN_ID": "r", "AGENTIC_EVALS_CASE": "c"}
    env["AGENTIC_EVALS_TRIAL"] = "1"
    with ExecTrace.start([TOOL], ["bash", "-c", f"bash {TOOL}"], env, cwd=skill) as trace:
        result = run_process(
            trace.argv,
            cwd=skill,
            env=trace.env,
            timeout=LONG,
            exclusive=True,
            preexisting=set(),
            marker_env=trace.marker_env,
        )
        result, traced = trace.observe(result)
    result.close()
    assert (result.orphan_pids, traced.problems, traced.method) == ((), (), "strace")


def fixture(skill: Path, trials: int = 2) -> Path:
    def case(name: str, script: str) -> dict[str, Any]:
        command = ["bash", "-c", script]
        return {
            "name": name,
            "type": "positive",
            "command": command,
            "expected": {"exit_code": 0},
            "must_exercise": [TOOL],
        }

    document = {
        "version": 2,
        "skill": "probe",
        "eval_kind": "runner_selftest",
        "trials": trials,
        "cases": [
            case("runs-the-tool", f"bash {TOOL}"),
            case("only-talks-about-it", f"echo would run {TOOL}"),
        ],
    }
    path = skill / "fixture.json"
    path.write_text(json.dumps(document))
    return path


@needs_strace
@pytest.mark.parametrize("jobs", [1, 2])
def test_evaluate_fails_the_unexercised_case_and_names_the_method(
    skill: Path, jobs: int, assert_valid_report: Any
) -> None:
    loaded = load_fixture(fixture(skill))
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    report = evaluate(loaded, RunOptions(jobs=jobs)).report
    runs_it, talks = report.cases
    assert (runs_it.outcome, runs_it.problems) == ("PASS", [])
    assert talks.outcome == "FAIL"
    assert [(p.code, "strace" in p.message, repr(TOOL) in p.message) for p in talks.problems] == [
        ("NOT_EXERCISED", True, True)
    ]
    assert all(t.orphan_pids_after_teardown == [] for c in report.cases for t in c.trials)
    assert_valid_report(json.loads(report.model_dump_json(by_alias=True)))


def test_evaluate_blocks_every_traced_case_without_a_tracer(
    skill: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trace_strace, "STRACE_PROGRAM", "strace-hidden-by-the-test")
    loaded = load_fixture(fixture(skill))
    assert loaded.model is not None
    report = evaluate(loaded).report
    assert [c.outcome for c in report.cases] == ["BLOCKED", "BLOCKED"]
    assert {p.code for c in report.cases for p in c.problems} == {"TRACE_UNAVAILABLE"}
    assert report.readiness != "READY"


def test_parse_strace_joins_interleaved_calls_and_decodes_strings() -> None:
    lines = [
        '100 execve("/usr/bin/bash", ["bash", "-c", "x"], 0x7ffd /* 3 vars */) = 0\n',
        '101 execve("/bin/true", ["/bin/true", "a\\"b\\\\c\\n\\303\\251"], 0x5 /* 3 vars */'
        " <unfinished ...>\n",
        '102 execveat(AT_FDCWD, "./run.sh", ["./run.sh"], 0x5, 0) = 0\n',
        "100 --- SIGCHLD {si_signo=SIGCHLD} ---\n",
        "101 <... execve resumed>)             = 0\n",
        '103 execve("/nope/sleep", ["sleep", "1"], 0x5 /* 3 vars */) = -1 ENOENT (No such file'
        " or directory)\n",
        '104 execve("/bin/echo", ["/bin/echo", "1", ...], 0x5 /* 3 vars */) = 0\n',
        '105 execve("/a/very/long/pa"..., ["x"], 0x5 /* 3 vars */) = 0\n',
        "106 +++ exited with 0 +++\n",
    ]
    assert list(parse_strace(lines)) == [
        Exec(100, "/usr/bin/bash", ("bash", "-c", "x")),
        Exec(102, "./run.sh", ("./run.sh",)),
        Exec(101, "/bin/true", ("/bin/true", 'a"b\\c\né')),
        Exec(103, "/nope/sleep", ("sleep", "1"), "ENOENT (No such file or directory)"),
        Exec(104, "/bin/echo", ("/bin/echo", "1")),
        Exec(105, "/a/very/long/pa", ("x",)),
    ]


@pytest.mark.parametrize(
    ("path", "argv", "entry", "expected"),
    [
        ("/usr/bin/bash", ("bash", "sub/tool.sh"), "sub/tool.sh", True),
        ("/usr/bin/bash", ("bash", "-euo", "pipefail", "./sub/tool.sh"), "sub/tool.sh", True),
        ("/usr/bin/bash", ("bash", "-o", "sub/tool.sh", "x"), "sub/tool.sh", False),
        ("/usr/bin/bash", ("bash", "-c", "bash sub/tool.sh"), "sub/tool.sh", False),
        ("/usr/bin/bash", ("bash", "-xc", "sub/tool.sh"), "sub/tool.sh", False),
        ("/skill/sub/tool.sh", ("sub/tool.sh",), "sub/tool.sh", True),
        ("/skill/mysub/tool.sh", ("mysub/tool.sh",), "sub/tool.sh", False),
        ("/bin/echo", ("echo", "would", "run", "sub/tool.sh"), "sub/tool.sh", False),
        ("/usr/bin/python3.11", ("python3", "-u", "sub/tool.py", "a"), "sub/tool.py", True),
        ("/usr/bin/python3", ("python3", "-m", "pytest", "-q"), "pytest", True),
        ("/usr/bin/python3", ("python3", "-W", "sub/tool.py", "x.py"), "sub/tool.py", False),
        ("/usr/bin/python3", ("python3", "-c", "print(1)", "sub/tool.py"), "sub/tool.py", False),
        ("/usr/bin/node", ("node", "--require", "sub/a.js", "sub/b.js"), "sub/a.js", False),
        ("/usr/bin/node", ("node", "--require", "sub/a.js", "sub/b.js"), "sub/b.js", True),
        ("/usr/bin/node", ("node", "-e", "1", "sub/b.js"), "sub/b.js", False),
        ("/usr/bin/psql", ("psql", "-c", "select 1"), "psql", True),
        ("/usr/bin/npm", ("npm", "test"), "npm test", True),
        ("/usr/bin/npm", ("npm", "install"), "npm test", False),
        ("/usr/bin/env", ("env", "bash", "sub/tool.sh"), "sub/tool.sh", False),
    ],
)
def test_an_exec_runs_an_entry_only_as_its_program_or_script(
    path: str, argv: tuple[str, ...], entry: str, expected: bool
) -> None:
    assert runs(Exec(1, path, argv), entry) is expected


def test_script_of_knows_where_the_scripts_arguments_start() -> None:
    assert script_of("/bin/sh", ("sh", "--", "run.sh", "a")) == ("run.sh", 3)
    assert script_of("/usr/bin/python3", ("python3", "-mpkg.cli", "a")) == ("pkg.cli", 2)
    assert script_of("/usr/bin/bash", ("bash", "-s", "run.sh")) is None
    assert script_of("/usr/bin/cat", ("cat", "run.sh")) is None
