"""The watchdog that outlives the runner: started once per runner process.

Where trials run in cgroups, a runner killed by SIGKILL must still leave
nothing running. The kernel does not kill a cgroup when whoever made it
dies, so a small process does (:mod:`.watchdog_main`): it holds the read end
of a pipe whose write end only the runner holds, and when that end closes,
because the runner exited in any way, it kills every trial cgroup of the
runs registered with it. It runs in a session of its own, outside every
trial's cgroup, so that neither a signal to the runner's process group nor a
trial's teardown reaches it.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path

_SCRIPT = Path(__file__).with_name("watchdog_main.py")
_EXIT_WAIT_SECONDS = 2.0
_lock = threading.Lock()
_current: tuple[int, subprocess.Popen[bytes]] | None = None


def _start() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-I", "-S", str(_SCRIPT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env={"PATH": os.defpath},
    )


def _process() -> subprocess.Popen[bytes]:
    """The watchdog of this process, started on first use (again after a fork or its death)."""
    global _current
    if _current is not None:
        pid, proc = _current
        if pid == os.getpid() and proc.poll() is None:
            return proc
    proc = _start()
    _current = (os.getpid(), proc)
    return proc


def stop() -> None:
    """Let this process's watchdog go (at exit): it sweeps what is still registered."""
    global _current
    with _lock:
        current, _current = _current, None
    if current is None or current[0] != os.getpid():
        return
    proc = current[1]
    if proc.stdin is not None:
        proc.stdin.close()
    try:
        proc.wait(timeout=_EXIT_WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        proc.returncode = -1  # it keeps sweeping on its own; nothing to reap here


atexit.register(stop)


def pid() -> int | None:
    """The watchdog's pid, when one runs for this process."""
    if _current is not None and _current[0] == os.getpid() and _current[1].poll() is None:
        return _current[1].pid
    return None


def _send(line: str) -> None:
    with _lock:
        proc = _process()
        assert proc.stdin is not None
        proc.stdin.write(os.fsencode(line) + b"\n")
        proc.stdin.flush()


def guard(directory: Path) -> None:
    """Have the watchdog kill what is in ``directory``'s slots if the runner dies.

    Raises:
        OSError: The watchdog cannot be started or reached.
    """
    _send(f"+{directory}")


def release(directory: Path) -> None:
    """The run cleaned ``directory`` up itself: the watchdog forgets it."""
    try:
        _send(f"-{directory}")
    except OSError:
        pass  # the watchdog is gone; the directory is gone too
