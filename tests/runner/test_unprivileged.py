"""Without CAP_SYS_ADMIN: the runner enters a user namespace of its own and still gives overlays.

Run through ``setpriv`` when the tests run as root: as ``nobody`` (skipped,
saying why, when that user cannot run this interpreter and read this checkout),
and as root with every capability dropped, as in a container, whom the kernel
refuses a user namespace of its own.
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
from typing import Any, NamedTuple

import pytest
from isolation_helpers import case, fixture

REPO = Path(__file__).resolve().parents[2]
NO_CAPABILITIES = "0000000000000000"


class Interpreter(NamedTuple):
    """A command prefix running this Python as another identity, and the path it imports from."""

    prefix: list[str]
    path: list[str]


def _interpreter_as(identity: list[str], shared: Path) -> tuple[Interpreter | None, str]:
    """This Python's version run as ``identity``, importing this checkout, or why there is none.

    A checkout under a directory only root may enter (a fresh clone in a private
    temporary folder) is bound on a new directory in ``shared`` (which everyone
    can reach) in a mount namespace of the command's own, so that where the
    checkout lies does not decide whether the test runs.
    """
    if os.geteuid() != 0:
        return None, "the tests do not run as root: they cannot switch users or drop capabilities"
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None, "setpriv is not installed"
    direct = _probe([setpriv, *identity], REPO)
    if direct is not None:
        return direct, ""
    unshare = shutil.which("unshare")
    if unshare is not None:
        view = shared / "checkout"
        view.mkdir(mode=0o755)
        bind = 'mount --bind "$1" "$2" && shift 2 && exec "$@"'
        wrapper = [unshare, "--mount", "--propagation", "private", "--", "sh", "-c", bind, "sh"]
        bound = _probe([*wrapper, str(REPO), str(view), setpriv, *identity], view)
        if bound is not None:
            return bound, ""
    name = identity[0].removeprefix("--reuid=")
    return None, f"{name} cannot run a Python that imports this checkout and its packages"


def _probe(prefix: list[str], root: Path) -> Interpreter | None:
    """The first interpreter ``prefix`` can run that imports pydantic from ``root``'s paths."""
    path = [_moved(entry, root) for entry in [str(REPO), *site.getsitepackages()]]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    executable = _moved(sys.executable, root)
    for candidate in (executable, f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        probe = subprocess.run(
            [*prefix, candidate, "-c", f"import sys; sys.path[:0] = {path!r}; import pydantic"],
            capture_output=True,
            check=False,
        )
        if probe.returncode == 0:
            return Interpreter([*prefix, candidate], path)
    return None


def _moved(entry: str, root: Path) -> str:
    """``entry`` as seen from ``root`` when the checkout is bound there."""
    inside = Path(entry)
    return str(root / inside.relative_to(REPO)) if inside.is_relative_to(REPO) else entry


NOBODY = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]
ROOT_WITHOUT_CAPABILITIES = ["--inh-caps=-all", "--bounding-set=-all"]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory nobody can reach (pytest's own temporary directories are the user's only)."""
    made = Path(tempfile.mkdtemp(prefix="agentic-evals-nobody-"))
    made.chmod(0o777)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def _run(interpreter: Interpreter, fixture_path: Path, home: Path) -> tuple[dict[str, Any], str]:
    """``run`` of ``fixture_path`` as ``interpreter``'s identity: the report and the summary."""
    output = home / "report.json"
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(home),
        "PYTHONPATH": os.pathsep.join(interpreter.path),
    }
    done = subprocess.run(
        [*interpreter.prefix, "-m", "agentic_evals", "run", str(fixture_path), "-o", str(output)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=home,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report: dict[str, Any] = json.loads(output.read_text())
    return report, done.stdout


def test_an_unprivileged_runner_isolates_its_trials(shared_dir: Path) -> None:
    interpreter, why = _interpreter_as(NOBODY, shared_dir)
    if interpreter is None:
        pytest.skip(why)
    tmp_path = shared_dir
    skill = tmp_path / "skill"
    cases = [
        case("writes", "echo x > out.txt; id -u; grep CapEff /proc/self/status"),
        case("offline", "exec 3<>/dev/tcp/127.0.0.1/9 || echo unreachable", network="none"),
    ]
    path = fixture(skill, cases, trials=1)
    for item in (skill, path):
        item.chmod(0o777)
    report, _ = _run(interpreter, path, tmp_path)
    if report["isolation"]["modes"] != {"overlay": 2}:
        pytest.skip(f"this kernel gives unprivileged overlays no chance: {report['isolation']}")
    writes, offline = (c["trials"][0] for c in report["cases"])
    trial_uid, caps = writes["stdout"].split("\n")[:2]
    assert trial_uid == "65534" and caps.split()[-1] == NO_CAPABILITIES, writes["stdout"]
    assert not (skill / "out.txt").exists()
    assert writes["workspace_changes"]["added"] == ["out.txt"]
    assert offline["isolation"]["network"] == "none" and "unreachable" in offline["stdout"]


def test_root_without_capabilities_runs_on_the_shared_tree_and_says_why(shared_dir: Path) -> None:
    """As in a container: the kernel refuses root's map, and the runner must stay mapped outside.

    Entered anyway, the runner would be the overflow user in a namespace it
    cannot leave: no file could be created, no tracer started, and every live
    trial was BLOCKED.
    """
    interpreter, why = _interpreter_as(ROOT_WITHOUT_CAPABILITIES, shared_dir)
    if interpreter is None:
        pytest.skip(why)
    skill = shared_dir / "skill"
    cases = [case("writes", "echo x > out.txt; id -u; grep CapEff /proc/self/status")]
    path = fixture(skill, cases, trials=1)
    report, summary = _run(interpreter, path, shared_dir)
    assert report["isolation"]["modes"] == {"none": 1}
    refused = "no user namespace: the kernel does not let root map itself into one from inside"
    assert any(refused in warning for warning in report["isolation"]["warnings"])
    assert refused in summary
    trial = report["cases"][0]["trials"][0]
    assert trial["outcome"] == "PASS", trial["problems"]
    assert trial["stdout"].split("\n")[:2] == ["0", f"CapEff:\t{NO_CAPABILITIES}"]
    assert (skill / "out.txt").read_text() == "x\n"  # the shared tree, as the summary says
