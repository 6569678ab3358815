"""Shortcut family "must_exercise by mention": only running that very file, to its end, counts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from builders import make_skill

from agentic_evals import codes
from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.model import CaseReport

CONTRACT = '#!/bin/bash\nread -r word <<< contract-ran\necho "$word"\n'
PY_CONTRACT = "import sys\nwords = ['contract', 'ran']\nprint('-'.join(words))\n"
needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")


def _run(tmp_path: Path, command: list[str], entry: str, **fields: Any) -> CaseReport:
    case = {
        "name": "contract",
        "type": "positive",
        "command": command,
        "must_exercise": [entry],
        "expected": {"exit_code": fields.pop("exit_code", 0)},
        **fields,
    }
    document = {"version": 2, "skill": "demo", "eval_kind": "runner_selftest", "trials": 1}
    files = {"contract.sh": CONTRACT, "contract.py": PY_CONTRACT, "bin/": None}
    skill = make_skill(tmp_path, "demo", files=files, fixture={**document, "cases": [case]})
    loaded = load_fixture(skill / "fixtures" / "agentic_eval.json")
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions()).report.cases[0]


def _codes(case: CaseReport) -> list[str]:
    return [p.code for p in case.trials[0].problems]


@needs_strace
@pytest.mark.parametrize(
    ("command", "entry"),
    [
        (["bash", "-c", "bash -n ../contract.sh"], "contract.sh"),
        (["bash", "-c", "bash --version ../contract.sh >/dev/null"], "contract.sh"),
        (["bash", "-c", "python3 -V ../contract.py"], "contract.py"),
        (["bash", "-c", "python3 -m py_compile ../contract.py"], "contract.py"),
        (
            [
                "bash",
                "-c",
                "cp ../contract.sh /tmp/contract.sh && bash /tmp/contract.sh; rm /tmp/contract.sh",
            ],
            "contract.sh",
        ),
    ],
    ids=["bash-n", "bash-version", "python-V", "py-compile", "stand-in-in-tmp"],
)
def test_mentioning_or_checking_the_contract_is_not_running_it(
    tmp_path: Path, command: list[str], entry: str
) -> None:
    case = _run(tmp_path, command, entry)
    assert (case.outcome, _codes(case)) == ("FAIL", [codes.NOT_EXERCISED])


@needs_strace
def test_running_the_contract_counts(tmp_path: Path) -> None:
    case = _run(tmp_path, ["bash", "-c", "bash ../contract.sh"], "contract.sh")
    assert (case.outcome, _codes(case)) == ("PASS", [])


@needs_strace
def test_a_program_shadowed_through_path_is_not_the_entry(tmp_path: Path) -> None:
    (tmp_path / "demo" / "bin").mkdir(parents=True)
    shadow = tmp_path / "demo" / "bin" / "sort"
    shadow.write_text('#!/bin/bash\nread -r line\necho "$line"\n')
    shadow.chmod(0o755)
    # The entry resolves at load to the sort on the case's PATH; the command shadows it.
    command = ["bash", "-c", 'PATH="$PWD/../bin:$PATH"; echo b | sort']
    case = _run(tmp_path, command, "sort")
    assert (case.outcome, _codes(case)) == ("FAIL", [codes.NOT_EXERCISED])
    honest = _run(tmp_path / "again", ["bash", "-c", "echo b | sort"], "sort")
    assert (honest.outcome, _codes(honest)) == ("PASS", [])


def test_a_stub_on_the_case_path_is_refused_at_load(tmp_path: Path) -> None:
    document = {"version": 2, "skill": "demo", "eval_kind": "runner_selftest", "trials": 1}
    case = {
        "name": "c",
        "type": "positive",
        "command": ["bash", "-c", "echo b | sort"],
        "must_exercise": ["sort"],
        "env": {"PATH": "../bin:/usr/bin:/bin"},
        "expected": {"exit_code": 0},
    }
    files = {"bin/sort": "#!/bin/sh\necho b\n"}
    skill = make_skill(tmp_path, "demo", files=files, fixture={**document, "cases": [case]})
    (skill / "bin" / "sort").chmod(0o755)
    loaded = load_fixture(skill / "fixtures" / "agentic_eval.json")
    (found,) = [f for f in loaded.findings if f.code == codes.SCHEMA_MUST_EXERCISE]
    assert "is trivial" in found.message


@needs_strace
def test_a_contract_killed_at_the_timeout_does_not_count(tmp_path: Path) -> None:
    slow = '#!/bin/bash\nread -r w <<< started\necho "$w"\nsleep 30\n'
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "slow.sh").write_text(slow)
    case = _run(tmp_path, ["bash", "-c", "bash ../slow.sh"], "slow.sh", timeout_seconds=1)
    assert case.trials[0].timed_out
    assert codes.NOT_EXERCISED in _codes(case)


@needs_strace
def test_a_contract_that_ended_before_the_timeout_counts(tmp_path: Path) -> None:
    command = ["bash", "-c", "bash ../contract.sh; sleep 30"]
    case = _run(tmp_path, command, "contract.sh", timeout_seconds=1)
    assert case.trials[0].timed_out
    assert codes.NOT_EXERCISED not in _codes(case)


def test_an_entry_that_names_no_file_is_a_load_error(tmp_path: Path) -> None:
    document = {"version": 2, "skill": "demo", "eval_kind": "runner_selftest", "trials": 1}
    case = {
        "name": "c",
        "type": "positive",
        "command": ["bash", "-c", "echo no-such-contract.sh"],
        "must_exercise": ["no-such-contract.sh"],
        "expected": {"exit_code": 0},
    }
    skill = make_skill(tmp_path, "demo", fixture={**document, "cases": [case]})
    loaded = load_fixture(skill / "fixtures" / "agentic_eval.json")
    assert loaded.model is None
    (found,) = [f for f in loaded.findings if f.code == codes.SCHEMA_MUST_EXERCISE]
    assert found.pointer == "/cases/0/must_exercise/0" and "names no file" in found.message


@pytest.mark.parametrize("entry", ["true", "noop.sh"])
def test_a_trivial_entry_is_refused_at_load(tmp_path: Path, entry: str) -> None:
    document = {"version": 2, "skill": "demo", "eval_kind": "runner_selftest", "trials": 1}
    case = {
        "name": "c",
        "type": "positive",
        "command": ["bash", "-c", f"bash ../noop.sh && {entry}"],
        "must_exercise": [entry],
        "expected": {"exit_code": 0},
    }
    files = {"noop.sh": "#!/bin/sh\nexit 0\n"}
    skill = make_skill(tmp_path, "demo", files=files, fixture={**document, "cases": [case]})
    loaded = load_fixture(skill / "fixtures" / "agentic_eval.json")
    assert loaded.model is None
    (found,) = [f for f in loaded.findings if f.code == codes.SCHEMA_MUST_EXERCISE]
    assert "is trivial" in found.message
