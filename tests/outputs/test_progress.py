"""Progress and failure output, under a pseudo-terminal and under a pipe, with and without -j."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from outputs_helpers import copy_sample

from agentic_evals.cli import cli

CASE_LINE = re.compile(r"^\[(\d)/6\] (\S+)\s+(\S+)\s+(\d/\d) trials  [0-9.]+ s( {2}flaky)?$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
EXPECTED = [
    ("1", "PASS", "writes-receipt", "2/2"),
    ("2", "PASS", "rejects-a-missing-mode", "2/2"),
    ("3", "FAIL", "fails-loudly", "0/2"),
    ("4", "PASS", "meets-a-rate-limit", "1/2"),
    ("5", "BLOCKED", "needs-a-service", "0/2"),
    ("6", "FAIL", "claims-a-receipt-it-never-wrote", "0/2"),
]


@pytest.fixture
def fixture(tmp_path: Path) -> Path:
    return copy_sample("outputs", tmp_path / "outputs") / "agentic_eval.json"


def environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return {**env, "COLUMNS": "100", **extra}


def run_piped(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentic_evals", *args],
        capture_output=True, text=True, env=env or environ(), timeout=300, check=False,
    )  # fmt: skip


def run_in_pty(
    *args: str, env: dict[str, str] | None = None, stdout_too: bool = False
) -> tuple[int, str, str]:
    """Run with stderr (and with ``stdout_too`` stdout) on a pseudo-terminal.

    Returns the exit code, what came through the stdout pipe, and what the terminal showed.
    """
    master, slave = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "agentic_evals", *args],
        stdout=slave if stdout_too else subprocess.PIPE, stderr=slave,
        stdin=subprocess.DEVNULL, env=env or environ(),
    ) as process:  # fmt: skip
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child side closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        out = process.stdout.read().decode() if process.stdout else ""
        code = process.wait(timeout=300)
    # The terminal turns each newline into CR LF.
    return code, out, b"".join(chunks).decode().replace("\r\n", "\n")


def case_lines(stderr: str) -> list[tuple[str, ...]]:
    plain = ANSI.sub("", stderr.replace("\r", "\n"))
    found = [CASE_LINE.match(line.strip()) for line in plain.splitlines()]
    return [(m[1], m[2], m[3], m[4]) for m in found if m]


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_a_pipe_gets_one_plain_line_per_case_in_fixture_order(fixture: Path, jobs: str) -> None:
    done = run_piped("run", str(fixture), "-j", jobs, "-o", "-")
    assert done.returncode == 1
    assert json.loads(done.stdout)["schema"] == "agentic_evals.report.v2"  # stdout stays JSON
    assert "\r" not in done.stderr and "\x1b" not in done.stderr
    assert case_lines(done.stderr) == EXPECTED
    assert "readiness: USABLE_WITH_GAPS (exit 1)" in done.stderr  # the summary moved to stderr
    assert "first failing trial: outputs-sample::fails-loudly#1 FAIL exit 1" in done.stderr
    assert "last 20 of 31 lines (11 cut)" in done.stderr and "hunter2" not in done.stderr


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_a_terminal_gets_a_live_status_line_and_the_same_case_lines(
    fixture: Path, jobs: str
) -> None:
    code, out, err = run_in_pty(
        "run", str(fixture), "-j", jobs, "-o", str(fixture.parent / "r.json")
    )
    assert code == 1
    assert "\r\x1b[K" in err
    assert re.search(r"\d/6 cases done, \d trial\(s\) running, \d+ s elapsed", err)
    assert case_lines(err) == EXPECTED
    assert "\x1b[32m" in err or "\x1b[1m" in err  # a terminal gets colour
    assert "readiness: USABLE_WITH_GAPS (exit 1)" in out


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_failure_detail_on_a_terminal(fixture: Path, jobs: str) -> None:
    code, _, shown = run_in_pty("run", str(fixture), "-j", jobs, stdout_too=True)
    plain = ANSI.sub("", shown)
    assert code == 1
    assert "first failing trial: outputs-sample::fails-loudly#1 FAIL exit 1" in plain
    assert "        | using token=[REDACTED]" in plain and "hunter2" not in plain
    assert "readiness: USABLE_WITH_GAPS (exit 1)" in plain
    assert case_lines(shown) == EXPECTED
    quiet = ANSI.sub("", run_in_pty("run", str(fixture), "-q", stdout_too=True)[2])
    assert "first failing trial" not in quiet and "EXIT_CODE: exit code 1" in quiet


def test_colour_follows_the_flags_and_the_environment(fixture: Path) -> None:
    forced = run_piped("run", str(fixture), "--progress", "plain", env=environ(FORCE_COLOR="1"))
    assert "\x1b[" in forced.stderr and "\x1b[" in forced.stdout
    both = run_piped("run", str(fixture), env=environ(FORCE_COLOR="1", NO_COLOR="1"))
    assert "\x1b[" not in both.stderr + both.stdout  # NO_COLOR wins over FORCE_COLOR
    flag = run_piped("run", str(fixture), "--color", "always", env=environ(NO_COLOR="1"))
    assert "\x1b[" in flag.stderr  # an explicit flag wins over both
    code, _, err = run_in_pty("run", str(fixture), "--color", "never", "--progress", "plain")
    assert code == 1 and "\x1b[" not in err and "\r" not in err  # plain: no status line


def test_progress_none_prints_no_case_line(fixture: Path) -> None:
    code, _, err = run_in_pty("run", str(fixture), "--progress", "none")
    assert code == 1 and case_lines(err) == [] and "cases done" not in err


def test_failure_detail_quiet_and_verbose(fixture: Path) -> None:
    normal = CliRunner().invoke(cli, ["run", str(fixture), "--progress", "none"]).stdout
    assert "first failing trial: outputs-sample::fails-loudly#1 FAIL exit 1" in normal
    assert "stderr of outputs-sample::fails-loudly#1: last 20 of 31 lines (11 cut)" in normal
    assert "        | using token=[REDACTED]" in normal and "hunter2" not in normal
    assert "        | err line 11\n" not in normal and "        | err line 12\n" in normal
    assert "stdout of outputs-sample::needs-a-service#1: 1 line" in normal
    assert (
        "hallucinated success: 2 trial(s) whose own checks passed while an independent check "
        "failed: outputs-sample::claims-a-receipt-it-never-wrote#1" in normal
    )
    quiet = CliRunner().invoke(cli, ["run", str(fixture), "--progress", "none", "-q"]).stdout
    assert "first failing trial" not in quiet and "EXIT_CODE: exit code 1" in quiet
    verbose = CliRunner().invoke(cli, ["run", str(fixture), "--progress", "none", "-v"]).stdout
    assert "trial outputs-sample::writes-receipt#2 PASS exit 0" in verbose
    assert "trial outputs-sample::meets-a-rate-limit#2 INFRA_BLOCKED exit 75" in verbose
