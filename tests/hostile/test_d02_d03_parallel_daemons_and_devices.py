"""Defects 2 and 3: parallel trials never miss a daemon that cleared its environment, and a
device in a workspace input is recorded, never read.

2: under ``--jobs 2``, every trial that leaves ``env -i setsid sleep`` behind
fails with ``ORPHAN_PROCESS``, and no such process outlives the run (attributed by
the trial's cgroup or private namespace, never by an environment marker a
process can drop). 3: a character device and a FIFO inside ``workspace.input``
are not copied (``isolation.not_copied``), the run ends, and the copies are gone.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from pathlib import Path

import psutil
import pytest
from hostile_run_helpers import case, cli, skill


def _sleepers(tag: str) -> list[psutil.Process]:
    """The processes running ``sleep <tag>`` (this test's daemons: the tag is unique)."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if process.info["cmdline"] == ["sleep", tag]:
            found.append(process)
    return found


def test_d02_a_daemon_that_clears_its_environment_is_caught_under_jobs_2(tmp_path: Path) -> None:
    tag = f"300.{uuid.uuid4().int % 10**6:06d}"  # a unique duration names this test's daemons
    script = f"env -i setsid sleep {tag} > /dev/null 2>&1 < /dev/null &"
    fixture = skill(tmp_path / "s", [case("daemon", ["sh", "-c", script])], trials=8)
    output = tmp_path / "report.json"
    try:
        code, err = cli("run", str(fixture), "-j", "2", "-o", str(output), timeout=120)
        survivors = _sleepers(tag)
    finally:
        for process in _sleepers(tag):
            process.kill()
    assert code == 1, err
    (daemon,) = json.loads(output.read_text())["cases"]
    if any("ran serially" in note for note in json.loads(output.read_text())["isolation"]["notes"]):
        pytest.skip("no cgroups or private namespaces here: --jobs ran serially")
    assert len(daemon["trials"]) == 8
    for trial in daemon["trials"]:
        assert trial["outcome"] == "FAIL"
        assert "ORPHAN_PROCESS" in [problem["code"] for problem in trial["problems"]], trial
    assert survivors == [], "a daemon outlived the run"


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
@pytest.mark.parametrize("mode", ["copy", "overlay"])
def test_d03_a_device_and_a_fifo_in_the_workspace_input_are_not_read(
    tmp_path: Path, mode: str
) -> None:
    work = tmp_path / "s" / "fixtures" / "work"
    work.mkdir(parents=True)
    (work / "data.txt").write_text("data\n")
    os.mknod(work / "zero", stat.S_IFCHR | 0o644, os.makedev(1, 5))  # like /dev/zero
    os.mkfifo(work / "pipe")
    fields = {"workspace": {"input": "work"}, "isolation": mode}
    fixture = skill(tmp_path / "s", [case("a", ["cat", "data.txt"], **fields)])
    output = tmp_path / "report.json"
    spool = tmp_path / "tmp"
    spool.mkdir()
    code, err = cli("run", str(fixture), "-o", str(output), timeout=60, env={"TMPDIR": str(spool)})
    report = json.loads(output.read_text())
    (trial,) = report["cases"][0]["trials"]
    if trial["isolation"]["mode"] != mode:
        pytest.skip(f"{mode} is not available here")
    assert code == 0, err
    assert trial["outcome"] == "PASS" and trial["stdout"] == "data\n"
    if mode == "copy":
        not_copied = sorted(trial["isolation"]["not_copied"])
        assert not_copied == ["pipe (FIFO)", "zero (character device)"], trial["isolation"]
    assert [p.name for p in spool.iterdir() if p.name.startswith("agentic-evals-ws-")] == []
    assert sum(f.stat().st_size for f in spool.rglob("*") if f.is_file()) < 2**20  # nothing read
