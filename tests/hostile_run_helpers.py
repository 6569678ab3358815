"""Runs of the real command line that the hostile-input tests stop, starve or mislead.

The command runs in a child interpreter (its signal handlers, exit status and
stderr are the process's); :func:`probe` can first replace one function of
agentic-evals by one that sends the process a signal, to stop a run at a
chosen phase.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

SKILL_MD = "---\nname: {name}\ndescription: A skill of the tests.\n---\n# {name}\n"

PROBE = """\
import importlib, os, signal, sys
target, signum = sys.argv[1], int(sys.argv[2])
if target:
    module_name, _, attribute = target.rpartition(":")
    owner_name, _, method = attribute.partition(".")
    module = importlib.import_module(module_name)
    owner = getattr(module, owner_name) if method else module
    name = method or attribute
    original = getattr(owner, name)
    def stopped(*args, **kwargs):
        os.kill(os.getpid(), signum)
        return original(*args, **kwargs)
    setattr(owner, name, stopped)
from agentic_evals.cli import main
main(sys.argv[3:])
"""


def skill(root: Path, cases: Sequence[Mapping[str, Any]], **top: Any) -> Path:
    """A skill folder ``root`` with a SKILL.md and ``fixtures/agentic_eval.json``; the fixture."""
    (root / "fixtures").mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(SKILL_MD.format(name=root.name))
    document = {"version": 2, "skill": root.name, "eval_kind": "runner_selftest", "trials": 1}
    document.update(top)
    document["cases"] = list(cases)
    path = root / "fixtures" / "agentic_eval.json"
    path.write_text(json.dumps(document))
    return path


def case(name: str, command: Sequence[str], **fields: Any) -> dict[str, Any]:
    """A positive case that expects exit 0 (``fields`` add to it or replace)."""
    made: dict[str, Any] = {"name": name, "type": "positive", "command": list(command)}
    made["expected"] = {"exit_code": 0}
    made.update(fields)
    return made


def start(*args: str) -> subprocess.Popen[bytes]:
    """Start ``agentic-evals ARGS`` in a child interpreter."""
    return subprocess.Popen(
        [sys.executable, "-m", "agentic_evals", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def probe(target: str, signum: int, *args: str, timeout: float = 60) -> tuple[int, str]:
    """Run ``agentic-evals ARGS`` with ``target`` (``module:function`` or ``module:Class.method``)
    sending the process ``signum`` when first called; the exit status and stderr."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, target, str(int(signum)), *args],
        cwd=REPO,
        capture_output=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return done.returncode, done.stderr.decode(errors="replace")


WITHOUT_DAC = (
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
)
"""A prefix that runs a command as root without the capabilities that bypass file
permissions, so that a mode of 000 denies it as it denies anyone else."""


def can_drop_dac() -> bool:
    """Whether :data:`WITHOUT_DAC` works here (root, with setpriv installed)."""
    return os.geteuid() == 0 and shutil.which("setpriv") is not None


def cli(
    *args: str,
    timeout: float = 60,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
    prefix: Sequence[str] = (),
) -> tuple[int, str]:
    """Run ``agentic-evals ARGS`` in ``cwd`` to its end: the exit status and stderr."""
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "agentic_evals", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )
    return done.returncode, done.stderr.decode(errors="replace")


def wait_for(path: Path, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Wait until ``path`` exists (a trial started); fail if the process ended first."""
    for _ in range(int(seconds / 0.02)):
        if path.exists():
            return
        if process.poll() is not None:
            break
        time.sleep(0.02)
    if not path.exists():
        process.kill()
        _, err = process.communicate(timeout=5)
        raise AssertionError(f"{path} never appeared: {err.decode(errors='replace')}")


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler installed for ``signum`` (its SigCgt mask)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def finish(process: subprocess.Popen[bytes], timeout: float = 60) -> tuple[int, str]:
    """Wait for ``process``: its exit status and stderr (killed, and failing, if it hangs)."""
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError("the command did not end") from None
    return process.returncode, err.decode(errors="replace")


def stop(process: subprocess.Popen[bytes], *signums: int, gap: float = 0.05) -> None:
    """Send ``signums`` to ``process`` one after another."""
    for signum in signums:
        process.send_signal(signum)
        time.sleep(gap)


SIGNAL_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
