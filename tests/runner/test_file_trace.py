"""The file tracer of live and real-world trials: fanotify, its strace fallback, and none."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from isolation_helpers import case, fixture, needs_overlay, run

from agentic_evals import codes
from agentic_evals.contract.layout import stub_location
from agentic_evals.reports.model import FileTrace, Report
from agentic_evals.runner.fanotify import fanotify_problem
from agentic_evals.runner.substance import substance
from agentic_evals.runner.trace_files import TRACER_VAR
from agentic_evals.runner.trace_record import TraceRecorder
from agentic_evals.runner.trace_strace import FILE_EVENTS, StraceTracer
from agentic_evals.runner.trace_strace_files import absorb

needs_fanotify = pytest.mark.skipif(
    fanotify_problem() is not None, reason=f"fanotify unavailable: {fanotify_problem()}"
)
needs_strace = pytest.mark.skipif(
    StraceTracer(FILE_EVENTS).problem() is not None,
    reason=f"strace cannot trace here: {StraceTracer(FILE_EVENTS).problem()}",
)
TRACERS = [
    pytest.param("fanotify", marks=[needs_overlay, needs_fanotify]),
    pytest.param("strace", marks=needs_strace),
]
WRITER = (
    "#!/bin/bash\nmkdir -p out\ncp data.txt out/copy.txt\nprintf '{\"ok\": true}' > out/r.json\n"
)


def _skill(root: Path) -> Path:
    skill = root / "skill"
    (skill / "fixtures").mkdir(parents=True)
    (skill / "run.sh").write_text(WRITER)
    (skill / "run.sh").chmod(0o755)
    (skill / "noop.sh").write_text("#!/bin/sh\n# does nothing\necho ok\nexit 0\n")
    (skill / "data.txt").write_text("data\n")
    (skill / "fixtures" / "stub.csv").write_text("a,b\n")
    return skill


def _trace(report: Report, name: str) -> FileTrace:
    found = next(c for c in report.cases if c.name == name).trials[0].file_trace
    assert found is not None
    return found


ARTIFACT = {"artifacts": [{"path": "out/r.json", "json_pointer": "/ok", "equals": True}]}


@pytest.mark.parametrize("tracer", TRACERS)
def test_the_trace_names_what_ran_what_was_checked_and_who_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    skill = _skill(tmp_path)
    cases = [
        case("real", "bash run.sh", real_world=True, expected=ARTIFACT, cwd="."),
        case(
            "wrapper",
            "bash noop.sh; bash -n run.sh; mkdir -p out; echo '{\"ok\": true}' > out/r.json",
            real_world=True,
            expected=ARTIFACT,
            cwd=".",
        ),
        case("untraced", "bash run.sh", evidence_class="deterministic", cwd="."),
    ]
    report = run(fixture(skill, cases))
    real = _trace(report, "real")
    assert real.method == tracer
    assert real.entrypoints == ["run.sh"]
    assert real.artifacts == {"out/r.json": "entrypoint"}
    wrapper = _trace(report, "wrapper")
    assert wrapper.entrypoints == []
    assert wrapper.trivial == ["noop.sh: a shell script that runs only echo, exit"]
    assert wrapper.checked == ["run.sh (-n)"]
    assert wrapper.artifacts == {"out/r.json": "wrapper"}
    untraced = next(c for c in report.cases if c.name == "untraced")
    assert untraced.trials[0].file_trace is None


@pytest.mark.parametrize("tracer", TRACERS)
@pytest.mark.parametrize(
    "script",
    [
        "cat ../skill/fixtures/stub.csv",
        "cat fixture?/stub.csv",
        'ln -s "$PWD/fixtures" /tmp/ae-link-$$ && cat /tmp/ae-link-$$/stub.csv; rm /tmp/ae-link-$$',
        'cat "$STUB"',
        "cp fixtures/stub.csv /tmp/ae-stub-$$ && cat /tmp/ae-stub-$$; rm -f /tmp/ae-stub-$$",
    ],
)
def test_a_stub_opened_by_any_spelling_is_in_the_trace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, script: str
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    skill = _skill(tmp_path)
    cases = [case("stub", f"bash run.sh; {script}", real_world=True, cwd=".")]
    cases[0]["env"] = {"STUB": "fixtures/stub.csv"}
    report = run(fixture(skill, cases))
    assert _trace(report, "stub").stub_opens == ["fixtures/stub.csv"]


def test_without_a_tracer_a_live_trial_is_blocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRACER_VAR, "none")
    skill = _skill(tmp_path)
    report = run(fixture(skill, [case("real", "bash run.sh", real_world=True, cwd=".")]))
    trial = report.cases[0].trials[0]
    assert trial.outcome == "BLOCKED"
    assert [p.code for p in trial.problems] == [codes.TRACE_UNAVAILABLE]
    assert trial.file_trace is not None and trial.file_trace.method == "unavailable"
    assert trial.file_trace.reason == f"{TRACER_VAR}=none"


def test_a_tracer_name_that_names_none_blocks_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TRACER_VAR, "ptrace")
    skill = _skill(tmp_path)
    report = run(fixture(skill, [case("real", "bash run.sh", real_world=True, cwd=".")]))
    trace = report.cases[0].trials[0].file_trace
    assert trace is not None and trace.method == "unavailable"
    assert "names no tracer" in (trace.reason or "")


@needs_strace
def test_strace_traces_a_trial_without_an_overlay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TRACER_VAR, raising=False)
    skill = _skill(tmp_path)
    cases = [case("real", "bash run.sh", real_world=True, cwd=".", isolation="none")]
    report = run(fixture(skill, cases))
    trace = _trace(report, "real")
    assert (trace.method, trace.entrypoints) == ("strace", ["run.sh"])


@pytest.mark.parametrize(
    ("content", "name"),
    [
        ("", "run.sh"),
        ("# only a comment\n\n", "run.sh"),
        ("exit 0\n", "run.sh"),
        ("#!/bin/bash\necho 'all good'\nprintf 'x\\n'\n:\ntrue\n", "run.sh"),
        ("#!/bin/true\nrm -rf /\n", "run.sh"),
        ("#!/usr/bin/env python3\nimport sys\nprint('ok')\nsys.exit(0)\n", "tool"),
        ('"""Doc."""\nif __name__ == "__main__":\n    print("ok")\n    pass\n', "tool.py"),
        ("X=1\necho $X > out.txt\n", "run.sh"),
        ("cat <<'EOF'\ndeployed to production\nEOF\n", "run.sh"),
        ("mkdir_out() { echo 'deployed'; }\nmkdir_out\n", "run.sh"),
        ("say() (\n  echo deployed\n)\nsay\n", "run.sh"),
        ("import sys\nsys.stdout.write('deployed\\n')\n", "run.py"),
        ('#!/bin/sh\nset -eu\ncd "$(dirname "$0")"\nsleep 0\necho deployed | cat\n', "run.sh"),
        ('cat > out/r.json <<EOF\n{"ok": true}\nEOF\n', "run.sh"),
    ],
)
def test_files_that_do_nothing_are_trivial(content: str, name: str) -> None:
    assert substance(content.encode(), name) is not None


def test_a_byte_copy_of_true_is_trivial() -> None:
    program = shutil.which("true")
    assert program is not None
    assert substance(Path(program).read_bytes(), "tool") == "a byte copy of a system no-op program"


@pytest.mark.parametrize(
    ("content", "name"),
    [
        ("#!/bin/bash\ncp a b\n", "run.sh"),
        ("echo $(date)\n", "run.sh"),
        ("import json\nprint(json.dumps({'a': 1}))\n", "tool.py"),
        ("print(open('x').read())\n", "tool.py"),
        ("#!/usr/bin/env node\nconsole.log(1)\n", "tool"),
        # A function's body is read with the rest: calling it does what the body does.
        ("deploy() { cp a b; }\ndeploy\n", "run.sh"),
        # The ``function`` keyword form is not read: its calls stay substantive.
        ("function deploy { echo deployed; }\ndeploy\n", "run.sh"),
        ("echo deployed | sort\n", "run.sh"),
        ("import sys\nsys.stdout.write(open('x').read())\n", "tool.py"),
    ],
)
def test_files_that_do_something_are_substantive(content: str, name: str) -> None:
    assert substance(content.encode(), name) is None


@pytest.mark.parametrize(
    ("path", "stub"),
    [
        ("fixtures/a.csv", True),
        ("Fixtures/a.csv", True),
        ("fixture/a.csv", True),
        ("test-fixtures/a.csv", True),
        ("sub/test_fixture/a.csv", True),
        ("fixtures.csv", False),
        ("src/fixtures_util.py", False),
    ],
)
def test_stub_locations_include_the_look_alikes(path: str, stub: bool) -> None:
    assert stub_location(path) is stub


RENAMES = (
    "#!/bin/bash\nmkdir -p out\n"
    'python3 -c \'import os; open("out/.r.tmp", "w").write("{}"); '
    'os.replace("out/.r.tmp", "out/r.json")\'\n'
)


@pytest.mark.parametrize("tracer", TRACERS)
def test_an_artifact_renamed_into_place_keeps_its_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    skill = _skill(tmp_path)
    (skill / "rename.sh").write_text(RENAMES)
    expected = {"artifacts": [{"path": "out/r.json", "exists": True}]}
    report = run(
        fixture(
            skill, [case("real", "bash rename.sh", real_world=True, expected=expected, cwd=".")]
        )
    )
    assert _trace(report, "real").artifacts == {"out/r.json": "entrypoint"}


@pytest.mark.parametrize("tracer", TRACERS)
def test_an_input_the_command_names_is_no_stub_unless_the_wrapper_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    skill = _skill(tmp_path)
    (skill / "reads.sh").write_text('#!/bin/bash\ncat "$1" > /dev/null\ncp "$1" /tmp/ae-x-$$\n')
    cases = [
        case("named", "bash ../reads.sh stub.csv", real_world=True, cwd="fixtures"),
        case(
            "wrapper-reads",
            "cat stub.csv >/dev/null; bash ../reads.sh stub.csv",
            real_world=True,
            cwd="fixtures",
        ),
    ]
    report = run(fixture(skill, cases, trials=1))
    assert _trace(report, "named").stub_opens == []
    assert _trace(report, "wrapper-reads").stub_opens == ["fixtures/stub.csv"]


def test_the_strace_record_is_read_with_split_calls_forks_and_renames(tmp_path: Path) -> None:
    tree = tmp_path / "skill"
    (tree / "out").mkdir(parents=True)
    (tree / "run.sh").write_text("#!/bin/bash\ncp a b\n")
    (tree / "out" / "r.json").write_text("{}")
    lines = [
        '10 execve("/usr/bin/bash", ["bash", "run.sh"], 0x1 /* 3 vars */) = 0\n',
        f'10 openat(AT_FDCWD<{tree}>, "run.sh", O_RDONLY <unfinished ...>\n',
        '11 execve("/usr/bin/true", ["true"], 0x1 /* 3 vars */) = 0\n',
        f"10 <... openat resumed>) = 3<{tree}/run.sh>\n",
        "10 clone(child_stack=NULL, flags=SIGCHLD) = 12\n",
        f'12 openat(AT_FDCWD<{tree}>, "out/.r", O_WRONLY|O_CREAT, 0666) = 3<{tree}/out/.r>\n',
        '12 rename("out/.r", "out/r.json") = 0\n',
    ]
    recorder = TraceRecorder("strace")
    absorb(lines, recorder, tree, tree)
    assert [(run.pid, run.how, run.trivial) for run in recorder.runs] == [(10, "script", None)]
    assert recorder.parents[12] == (10,)
    assert [pid for _, pid in recorder.writers[f"{tree}/out/r.json"]] == [12]
    roots = {10: recorder.runs[0].seq}
    assert all(
        recorder.by_entrypoint(seq, pid, roots)
        for seq, pid in recorder.writers[f"{tree}/out/r.json"]
    )


@pytest.mark.parametrize("tracer", TRACERS[:1])
def test_a_thread_keeps_one_group_and_no_mark_between_trials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str
) -> None:
    """Closing a group costs a kernel grace period: a worker keeps one, unmarked between trials."""
    from agentic_evals.runner import fanotify

    made: list[int] = []
    real_init = fanotify._init

    def counted() -> int:
        made.append(real_init())
        return made[-1]

    monkeypatch.setattr(fanotify, "_init", counted)
    monkeypatch.setattr(fanotify, "_GROUPS", {})
    monkeypatch.setenv(TRACER_VAR, tracer)
    skill = _skill(tmp_path)
    cases = [case(name, "bash run.sh", real_world=True, cwd=".") for name in ("one", "two")]
    try:
        report = run(fixture(skill, cases, trials=3))
        # The kept group has no mark left (fdinfo lists a line per mark).
        marks = [
            line
            for fd in made
            for line in Path(f"/proc/self/fdinfo/{fd}").read_text().splitlines()
            if line.startswith(("fanotify ino:", "fanotify mnt_id:", "fanotify sdev:"))
        ]
    finally:
        for fd in made:
            os.close(fd)
    trials = [trial for record in report.cases for trial in record.trials]
    assert len(trials) == 6
    assert all(t.file_trace is not None and t.file_trace.entrypoints == ["run.sh"] for t in trials)
    assert len(made) == 1, "one group for the serial run's one worker"
    assert marks == []
