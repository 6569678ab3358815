"""Without root: the runner enters a user namespace of its own and still gives trials overlays.

Run as the ``nobody`` user through ``setpriv`` when the tests run as root; skipped
(saying why) when that user cannot run this interpreter and read this checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from isolation_helpers import case, fixture

REPO = Path(__file__).resolve().parents[2]


def _interpreter_for_nobody() -> tuple[list[str] | None, str]:
    """A command prefix that runs this Python's version as ``nobody``, or why there is none."""
    if os.geteuid() != 0:
        return None, "the tests do not run as root, so they cannot switch to nobody"
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None, "setpriv is not installed"
    prefix = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        probe = subprocess.run(
            [*prefix, candidate, "-c", f"import sys; sys.path[:0] = {_path()!r}; import pydantic"],
            capture_output=True,
            check=False,
        )
        if probe.returncode == 0:
            return [*prefix, candidate], ""
    return None, f"nobody cannot run a {version} that imports this checkout and its packages"


def _path() -> list[str]:
    return [str(REPO), *site.getsitepackages()]


PREFIX, WHY = _interpreter_for_nobody()
pytestmark = pytest.mark.skipif(PREFIX is None, reason=WHY)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory nobody can reach (pytest's own temporary directories are the user's only)."""
    made = Path(tempfile.mkdtemp(prefix="agentic-evals-nobody-"))
    made.chmod(0o777)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_an_unprivileged_runner_isolates_its_trials(shared_dir: Path) -> None:
    assert PREFIX is not None
    tmp_path = shared_dir
    skill = tmp_path / "skill"
    cases = [
        case("writes", "echo x > out.txt; id -u; grep CapEff /proc/self/status"),
        case("offline", "exec 3<>/dev/tcp/127.0.0.1/9 || echo unreachable", network="none"),
    ]
    path = fixture(skill, cases, trials=1)
    for item in (skill, path):
        item.chmod(0o777)
    output = tmp_path / "report.json"
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
        "PYTHONPATH": os.pathsep.join(_path()),
    }
    done = subprocess.run(
        [*PREFIX, "-m", "agentic_evals", "run", str(path), "-o", str(output)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(output.read_text())
    if report["isolation"]["modes"] != {"overlay": 2}:
        pytest.skip(f"this kernel gives unprivileged overlays no chance: {report['isolation']}")
    writes, offline = (c["trials"][0] for c in report["cases"])
    uid, caps = writes["stdout"].split("\n")[:2]
    assert uid == str(65534) and caps.split()[-1] == "0000000000000000"
    assert not (skill / "out.txt").exists()
    assert writes["workspace_changes"]["added"] == ["out.txt"]
    assert offline["isolation"]["network"] == "none" and "unreachable" in offline["stdout"]
