"""Leaving a trial thread's private mount namespace keeps root and working directory together.

A run's main thread enters a private mount namespace for its overlays and goes
back at the end. When another thread still shares its fs state (one it started
afterwards, or one just joined whose exit the kernel has not finished), the
kernel refuses the way back; the working directory must then stay beside the
root in the private namespace. Were it moved back to the host's mounts alone,
a relative and an absolute name of one directory would lie on two mounts and
a report written by rename would fail with "Invalid cross-device link".

Each case runs in a child Python so that no pytest thread changes namespace.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentic_evals.runner import kernel

pytestmark = pytest.mark.skipif(
    not kernel.capable_sys_admin(), reason="entering a mount namespace here needs root"
)

ENTER = """
import os, threading
from pathlib import Path
from agentic_evals.runner import kernel
from agentic_evals.runner.isolation.mounts import ThreadMounts
from agentic_evals.reports.json_out import write_text_atomic
host = kernel.namespace_of(threading.get_native_id())
"""


def _child(tmp_path: Path, body: str) -> list[str]:
    script = textwrap.dedent(ENTER) + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_thread_still_alive_keeps_the_caller_in_the_private_namespace_with_its_cwd(
    tmp_path: Path,
) -> None:
    lines = _child(
        tmp_path,
        """
        mounts = ThreadMounts.enter("return-test", user_namespace=False, restore=True)
        gate = threading.Event()
        helper = threading.Thread(target=gate.wait, daemon=True)
        helper.start()
        mounts.release()
        print(kernel.namespace_of(threading.get_native_id()) == host)
        Path("a").write_text("x")
        os.rename("a", os.path.abspath("b"))  # EXDEV were cwd and root on two mounts
        write_text_atomic(Path("out/report.json"), "{}")
        gate.set()
        helper.join()
        """,
    )
    assert lines == ["False"]  # the kernel refused the way back, as it must
    assert (tmp_path / "b").read_text() == "x"
    assert (tmp_path / "out" / "report.json").read_text() == "{}"


EXITING = """
import time
from agentic_evals.runner.isolation import mounts as module
module.SETNS_PATIENCE = {patience}
mounts = ThreadMounts.enter("return-test", user_namespace=False, restore=True)
helper = threading.Thread(target=time.sleep, args=(0.5,))
helper.start()
mounts.release()
print(kernel.namespace_of(threading.get_native_id()) == host)
write_text_atomic(Path("out/report.json"), "{{}}")
"""


def test_a_thread_that_is_exiting_does_not_keep_the_caller_from_going_back(
    tmp_path: Path,
) -> None:
    # A thread ending a moment after the run (a joined one ends in the kernel
    # a moment after Python saw it end) is waited for, here half a second...
    assert _child(tmp_path, EXITING.format(patience=5.0)) == ["True"]
    assert (tmp_path / "out" / "report.json").read_text() == "{}"
    # ...where not waiting leaves the caller behind: the wait is what holds.
    assert _child(tmp_path, EXITING.format(patience=0)) == ["False"]


def test_an_atomic_write_by_a_relative_name_holds_when_cwd_and_root_are_on_two_mounts(
    tmp_path: Path,
) -> None:
    lines = _child(
        tmp_path,
        """
        saved = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
        kernel.unshare(kernel.CLONE_NEWNS)
        kernel.mount(None, "/", None, kernel.MS_REC | kernel.MS_SLAVE)
        os.fchdir(saved)  # cwd on the host's mount, root in the new namespace
        Path("a").write_text("x")
        try:
            os.rename("a", os.path.abspath("b"))
        except OSError as error:
            print(error.errno == __import__("errno").EXDEV)
        write_text_atomic(Path("out/report.json"), "{}")
        write_text_atomic(Path("out/report.json"), "[]")
        print(sorted(os.listdir("out")))
        """,
    )
    assert lines == ["True", "['report.json']"]  # the mismatch is real; the write holds
    assert (tmp_path / "out" / "report.json").read_text() == "[]"
