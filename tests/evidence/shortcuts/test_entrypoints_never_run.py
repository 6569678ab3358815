"""Shortcut family "Entrypoints that never run": named in the command, never run, or hijacked."""

from __future__ import annotations

from pathlib import Path

import pytest
from shortcut_helpers import live, live_case, load_skill, run_skill

from agentic_evals import codes
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.facts import evidence_table

PROSE = {"stdout_contains": ["deployed"]}


@pytest.mark.parametrize(
    "script",
    [
        "true || bash ../honest.sh; echo deployed",
        "echo deployed; exit 0; bash ../honest.sh",
        "if false; then bash ../honest.sh; fi; echo deployed",
        "deploy() { bash ../honest.sh; }; echo deployed",
        "bash -n ../honest.sh && echo deployed",
        "bash --version ../honest.sh >/dev/null && echo deployed",
    ],
    ids=["or-true", "exit-first", "if-false", "function-never-called", "syntax-check", "version"],
)
def test_an_entrypoint_that_never_runs_is_not_live(tmp_path: Path, script: str) -> None:
    report = run_skill(tmp_path, {}, live_case(["bash", "-c", script], PROSE, readback=True))
    case = live(report)
    assert case.outcome == "PASS"
    assert codes.LIVE_NO_ENTRYPOINT in case.evidence_disqualifiers
    trace = case.trials[0].file_trace
    assert trace is not None and trace.entrypoints == []


def test_a_syntax_check_is_recorded_as_a_check(tmp_path: Path) -> None:
    script = "bash -n ../honest.sh && echo deployed"
    report = run_skill(tmp_path, {}, live_case(["bash", "-c", script], PROSE, readback=True))
    trace = live(report).trials[0].file_trace
    assert trace is not None and trace.checked == ["honest.sh (-n)"]


@pytest.mark.parametrize(
    "env",
    [
        {"BASH_ENV": "../hijack.sh"},
        {"ENV": "../hijack.sh"},
        {"LD_PRELOAD": "/nonexistent/libfake.so"},
        {"PYTHONSTARTUP": "../hijack.py"},
        {"NODE_OPTIONS": "--require ../hijack.js"},
        {"PYTHONPATH": "../fake"},
        {"PATH": "../fixtures/bin:/usr/bin:/bin"},
    ],
    ids=lambda env: next(iter(env)),
)
def test_an_env_that_hijacks_the_interpreter_is_no_live_evidence(
    tmp_path: Path, env: dict[str, str]
) -> None:
    loaded = load_skill(tmp_path, {}, live_case(["bash", "../honest.sh"], env=env))
    assert loaded.model is not None
    facts = evidence_table(loaded.model, loaded.path.resolve().parent)["live"]
    assert codes.LIVE_ENV_INJECTION in facts.disqualifiers
    assert not facts.live_qualified


def test_a_path_entry_with_a_fake_bash_in_the_tree(tmp_path: Path) -> None:
    files = {"bin/bash": "#!/bin/sh\necho deployed\n"}
    case = live_case(
        ["bash", "../honest.sh"], PROSE, readback=True, env={"PATH": "../bin:/usr/bin:/bin"}
    )
    loaded = load_skill(tmp_path, files, case)
    assert loaded.model is not None
    (loaded.path.parent.parent / "bin" / "bash").chmod(0o755)
    facts = evidence_table(loaded.model, loaded.path.resolve().parent)["live"]
    assert codes.LIVE_ENV_INJECTION in facts.disqualifiers
    # And the trace shows that the fake ran instead of the program.
    report = evaluate(loaded, RunOptions()).report
    case_report = live(report)
    assert case_report.outcome == "PASS"
    assert codes.LIVE_NO_ENTRYPOINT in case_report.evidence_disqualifiers
    trace = case_report.trials[0].file_trace
    assert trace is not None and trace.entrypoints == []
    assert trace.trivial == ["bin/bash: a shell script that runs only echo"]


def test_a_path_entry_with_a_real_program_dir_is_fine(tmp_path: Path) -> None:
    files = {"bin/tool.sh": "#!/bin/sh\ncp a b\n"}
    case = live_case(["bash", "../honest.sh"], env={"PATH": "../bin:/usr/bin:/bin"})
    loaded = load_skill(tmp_path, files, case)
    assert loaded.model is not None
    facts = evidence_table(loaded.model, loaded.path.resolve().parent)["live"]
    assert codes.LIVE_ENV_INJECTION not in facts.disqualifiers


def test_an_env_injection_still_disqualifies_after_the_run(tmp_path: Path) -> None:
    """What a run's trials showed is added to the case's facts; its environment still counts."""
    case = live_case(
        ["bash", "../honest.sh"], PROSE, readback=True, env={"BASH_ENV": "../hijack.sh"}
    )
    report = run_skill(tmp_path, {"hijack.sh": "true\n"}, case)
    record = live(report)
    assert record.outcome == "PASS"
    assert codes.LIVE_ENV_INJECTION in record.evidence_disqualifiers
    assert record.effective_evidence_class != "live_e2e"
