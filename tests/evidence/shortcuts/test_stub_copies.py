"""Shortcut family "Stub inputs by another road", a copy: a stub copied out of the tree.

An earlier, untraced case copies a stub out of the skill tree; a later live
case reads the copy by any spelling. The copy's path says nothing, its
content does: the live case is disqualified (``LIVE_STUB_INPUT``) under
either tracer, and without one when its command names the copy.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import make_skill
from shortcut_helpers import HONEST, NEGATIVE, live, live_case

from agentic_evals import codes
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import CaseReport
from agentic_evals.runner.fanotify import fanotify_problem
from agentic_evals.runner.trace_files import TRACER_VAR
from agentic_evals.runner.trace_strace import FILE_EVENTS, StraceTracer

from isolation_helpers import needs_overlay  # isort: skip

needs_fanotify = pytest.mark.skipif(
    fanotify_problem() is not None, reason=f"fanotify unavailable: {fanotify_problem()}"
)
needs_strace = pytest.mark.skipif(
    StraceTracer(FILE_EVENTS).problem() is not None, reason="strace cannot trace here"
)
TRACERS = [
    pytest.param("fanotify", marks=[needs_overlay, needs_fanotify]),
    pytest.param("strace", marks=needs_strace),
]
READS = HONEST.replace('echo "deployed"', 'cat "${1:-/dev/null}" >/dev/null\necho "deployed"')
"""The honest program, reading the file it is given."""
READS_ALL = HONEST.replace('echo "deployed"', 'cat "$1"/* >/dev/null\necho "deployed"')
"""The honest program, reading every file of the folder it is given."""


def _reads_fixed(path: Path) -> str:
    """The honest program, reading a path written into it."""
    return HONEST.replace('echo "deployed"', f"cat {path} >/dev/null\necho 'deployed'")


@pytest.fixture
def stub() -> str:
    """A stub's content no other file has."""
    return f"id,{uuid.uuid4().hex}\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the skill tree, where the copier puts its copies."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


@pytest.fixture
def in_tmp() -> Iterator[Path]:
    """A file name directly in ``/tmp``, removed afterwards."""
    path = Path("/tmp") / f"ae-stub-copy-{uuid.uuid4().hex}.csv"
    yield path
    path.unlink(missing_ok=True)


def copier(script: str) -> dict[str, Any]:
    """An earlier, untraced case that copies a stub out of the tree."""
    return {
        "name": "copier",
        "type": "positive",
        "evidence_class": "deterministic",
        "command": ["bash", "-c", script],
        "expected": {"exit_code": 0},
    }


def run_cases(
    root: Path, files: dict[str, object], *cases: dict[str, Any]
) -> tuple[CaseReport, Path]:
    """Run a skill with ``files`` and ``cases`` (in order); the live case and the tree."""
    fixture = {"version": 2, "skill": "demo", "trials": 2, "cases": [*cases, NEGATIVE]}
    skill = make_skill(root, "demo", files={"honest.sh": HONEST, **files}, fixture=fixture)
    loaded = load_fixture(skill / "fixtures" / "agentic_eval.json")
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return live(evaluate(loaded, RunOptions()).report), skill


def _copies(result: CaseReport) -> list[str]:
    trace = result.trials[0].file_trace
    assert trace is not None
    return trace.stub_copies


def _files(stub: str, **more: object) -> dict[str, object]:
    return {"reads.sh": READS, "fixtures/stub.csv": stub, **more}


def _disqualified(result: CaseReport, copy: Path, verb: str = "opened") -> None:
    shown = f"{verb} {os.path.realpath(copy)}, a copy of fixtures/stub.csv"
    assert codes.LIVE_STUB_INPUT in result.evidence_disqualifiers
    assert shown in _copies(result)
    assert result.effective_evidence_class != "live_e2e"


@pytest.mark.parametrize("tracer", TRACERS)
@pytest.mark.parametrize("spelling", ["path", "env", "glob", "symlink"])
def test_a_copy_read_by_a_later_live_case_disqualifies_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    tracer: str,
    spelling: str,
    stub: str,
    outside: Path,
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    copy, link = outside / "stub.csv", outside / "link.csv"
    fields: dict[str, Any] = {}
    command = ["bash", "../reads.sh", str(copy)]
    if spelling == "env":
        command, fields = ["bash", "-c", 'bash ../reads.sh "$INPUT"'], {"env": {"INPUT": str(copy)}}
    elif spelling == "glob":
        command = ["bash", "-c", f"bash ../reads.sh {outside}/stu?.csv"]
    elif spelling == "symlink":
        command = ["bash", "../reads.sh", str(link)]
    script = f"cp stub.csv {copy} && ln -sf {copy} {link}"
    result, _ = run_cases(tmp_path, _files(stub), copier(script), live_case(command, **fields))
    _disqualified(result, copy)


@pytest.mark.parametrize("tracer", TRACERS)
@pytest.mark.parametrize("cp", ["cp", "cp -p"], ids=["cp", "cp-keeping-mtime"])
def test_a_copy_directly_in_tmp_read_by_the_skill_itself_disqualifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, cp: str, stub: str, in_tmp: Path
) -> None:
    # No case names the copy's path in words the reading sees: it is found in /tmp, also
    # when the copy keeps the stub's old mtime (its ctime is the copy's).
    monkeypatch.setenv(TRACER_VAR, tracer)
    name = in_tmp.name
    files = _files(stub, **{"fixed.sh": _reads_fixed(in_tmp)})
    earlier = copier(f'touch -d 2001-01-01 stub.csv; {cp} stub.csv "/tmp/$(printf %s {name})"')
    result, _ = run_cases(tmp_path, files, earlier, live_case(["bash", "../fixed.sh"]))
    _disqualified(result, in_tmp)


@pytest.mark.parametrize("tracer", TRACERS)
def test_a_hard_coded_copy_path_named_by_an_earlier_case_is_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, stub: str, outside: Path
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    copy = outside / "deep" / "stub.csv"
    files = _files(stub, **{"fixed.sh": _reads_fixed(copy)})
    earlier = copier(f"mkdir -p {copy.parent} && cp stub.csv {copy}")
    result, _ = run_cases(tmp_path, files, earlier, live_case(["bash", "../fixed.sh"]))
    _disqualified(result, copy)


@pytest.mark.parametrize("tracer", TRACERS)
def test_a_copy_in_a_named_folder_disqualifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, stub: str, outside: Path
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    files = _files(stub, **{"all.sh": READS_ALL})
    live_one = live_case(["bash", "../all.sh", str(outside)])
    result, _ = run_cases(tmp_path, files, copier(f"cp stub.csv {outside}/"), live_one)
    _disqualified(result, outside / "stub.csv")


def test_a_named_copy_disqualifies_without_a_tracer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stub: str, outside: Path
) -> None:
    monkeypatch.setenv(TRACER_VAR, "none")
    copy = outside / "stub.csv"
    live_one = live_case(["bash", "../reads.sh", str(copy)])
    result, _ = run_cases(tmp_path, _files(stub), copier(f"cp stub.csv {copy}"), live_one)
    assert result.trials[0].file_trace is not None
    assert result.trials[0].file_trace.method == "unavailable"
    _disqualified(result, copy, verb="names")


@pytest.mark.parametrize("tracer", TRACERS)
def test_a_non_stub_file_in_tmp_leaves_the_case_qualified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, stub: str, in_tmp: Path
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    files = _files(stub, **{"data.csv": f"not {stub}"})
    live_one = live_case(["bash", "../reads.sh", str(in_tmp)])
    result, _ = run_cases(tmp_path, files, copier(f"cp ../data.csv {in_tmp}"), live_one)
    assert (result.live_qualified, result.evidence_disqualifiers) == (True, [])
    assert _copies(result) == []


@pytest.mark.parametrize("tracer", TRACERS)
def test_a_copy_of_an_empty_stub_is_no_stub_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracer: str, stub: str, in_tmp: Path
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    files = _files(stub, **{"fixtures/empty.txt": ""})
    live_one = live_case(["bash", "../reads.sh", str(in_tmp)])
    result, _ = run_cases(tmp_path, files, copier(f"cp empty.txt {in_tmp}"), live_one)
    assert (result.live_qualified, result.evidence_disqualifiers) == (True, [])


@pytest.mark.parametrize("tracer", TRACERS)
def test_a_copy_the_live_trial_neither_opens_nor_names_does_not_disqualify(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    tracer: str,
    stub: str,
    in_tmp: Path,
    outside: Path,
) -> None:
    monkeypatch.setenv(TRACER_VAR, tracer)
    files = _files(stub, **{"data.csv": "x,y\n"})
    earlier = copier(f"cp stub.csv {in_tmp} && cp stub.csv {outside}/stub.csv")
    live_one = live_case(["bash", "../reads.sh", "../data.csv"])
    result, _ = run_cases(tmp_path, files, earlier, live_one)
    assert in_tmp.read_text() == stub  # the copies are there, unread
    assert (result.live_qualified, result.evidence_disqualifiers) == (True, [])
