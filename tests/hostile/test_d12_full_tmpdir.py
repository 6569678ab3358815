"""Defect 12: a full TMPDIR while a large stream is spooled ends cleanly, with a report.

The stream keeps what fitted in memory, the rest is still counted and watched
by the stream oracles; the trial fails with a named problem (``STREAM_TRUNCATED``),
the report is written, and nothing crashes.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import IO

import pytest
from hostile_helpers import cli


def full_tmpdir(**_: object) -> IO[bytes]:
    return open("/dev/full", "w+b", buffering=0)  # noqa: SIM115 - the sink closes it


def test_d12_a_stream_that_cannot_be_spooled_is_reported_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fixture = tmp_path / "agentic_eval.json"
    loud = "import sys; sys.stdout.write('x' * (3 * 2**20)); sys.stdout.write('END')"
    fixture.write_text(
        json.dumps({
            "version": 2, "skill": "s", "eval_kind": "runner_selftest", "trials": 1,
            "cases": [{"name": "loud", "type": "positive", "command": [sys.executable, "-c", loud],
                       "expected": {"exit_code": 0, "stdout_contains": ["END"]}}],
        }),
        encoding="utf-8",
    )  # fmt: skip
    monkeypatch.setattr(tempfile, "TemporaryFile", full_tmpdir)
    report = tmp_path / "report.json"
    ended = cli(capsys, "run", fixture, "-q", "-o", report)
    assert ended.code == 1, ended
    text = report.read_text("utf-8")
    assert "cannot keep more of the stream: No space left on device" in text
    [trial] = json.loads(text)["cases"][0]["trials"]
    assert trial["outcome"] != "pass"
    assert any(
        p["code"] == "STREAM_TRUNCATED" and "stdout could not be kept whole" in p["message"]
        for p in trial["problems"]
    ), trial["problems"]
