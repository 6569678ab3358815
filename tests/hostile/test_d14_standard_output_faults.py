"""Defect 14: a document or summary that cannot reach standard output is a clean exit 2.

A full device (``-o -`` into ``/dev/full``), a closed stream or a full stdout
for the summary: the command says which stream and why, exits 2, no traceback.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest
from hostile_helpers import REPO, Inputs, cli


def _closed() -> IO[str]:
    stream = io.StringIO()
    stream.close()
    return stream


BROKEN = ["full device", "closed stream", "no stream"]


@pytest.fixture
def break_stdout(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Replace stdout by a broken stream, from inside the test (capture sets it before)."""
    opened: list[IO[str]] = []

    def apply(how: str) -> None:
        handle: IO[str] | None
        if how == "full device":
            handle = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - closed below
            opened.append(handle)
        elif how == "closed stream":
            handle = _closed()
        else:
            handle = None  # what Python gives a process started with stdout closed
        monkeypatch.setattr(sys, "stdout", handle)

    yield apply
    monkeypatch.undo()
    for handle in opened:
        try:
            handle.close()
        except OSError:
            pass  # the unflushed rest cannot go to a full device either


COMMANDS = {
    "validate -o -": ("validate", "{fixture}", "-o", "-"),
    "validate summary": ("validate", "{fixture}", "--format", "sarif"),
    "schema": ("schema", "fixture"),
    "run -o -": ("run", "{fixture}", "-o", "-"),
    "run summary": ("run", "{fixture}"),
    "merge -o -": ("merge", "{shard1}", "{shard2}", "-o", "-"),
    "report": ("report", "{base}", "--format", "markdown"),
    "compare": ("compare", "{base}", "{head}"),
    "audit-skills": ("audit-skills", "{tree}"),
}


@pytest.mark.parametrize("how", BROKEN)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_d14_a_broken_stdout_is_exit_2_naming_the_stream(
    command: str,
    how: str,
    inputs: Inputs,
    break_stdout: Callable[[str], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    fields = {key: str(value) for key, value in inputs._asdict().items()}
    args = [part.format(**fields) for part in COMMANDS[command]]
    break_stdout(how)
    ended = cli(capsys, *args)
    assert ended.code == 2, (how, ended)
    assert "standard output" in ended.err, ended.err
    assert not Path("-").exists()


def test_d14_a_process_started_with_stdout_closed_writes_no_file_named_dash(
    inputs: Inputs, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentic_evals", "validate", str(inputs.fixture), "-o", "-"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        preexec_fn=lambda: os.close(1),  # noqa: PLW1509 - only closes a descriptor
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "standard output is closed" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
