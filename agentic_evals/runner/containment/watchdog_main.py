"""The runner's watchdog process: when the runner is gone, kill what its trials left.

Run as a script (``python -I -S watchdog_main.py``), importing nothing but the
standard library. It reads lines from stdin, a pipe whose other end only the
runner holds: ``+DIR`` registers a run's cgroup directory, ``-DIR`` forgets it
(the run cleaned up itself). End of file means the runner exited, however it
ended, even by SIGKILL: every process in every slot below the registered
directories is killed and the directories are removed.
"""

from __future__ import annotations

import os
import signal
import sys
import time

_ROUNDS = 100
_PAUSE_SECONDS = 0.01


def _pids(directory: str) -> list[int]:
    try:
        with open(os.path.join(directory, "cgroup.procs"), encoding="ascii") as handle:
            return [int(word) for word in handle.read().split()]
    except (OSError, ValueError):
        return []


def _kill(directory: str) -> None:
    kill_file = os.path.join(directory, "cgroup.kill")
    for _ in range(_ROUNDS):
        pids = _pids(directory)
        if not pids:
            return
        if os.path.exists(kill_file):
            try:
                with open(kill_file, "w", encoding="ascii") as handle:
                    handle.write("1")
            except OSError:
                pass
        else:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(_PAUSE_SECONDS)


def _sweep(run_dir: str) -> None:
    try:
        slots = [os.path.join(run_dir, name) for name in os.listdir(run_dir)]
    except OSError:
        return
    for slot in slots:
        if os.path.isdir(slot):
            _kill(slot)
            try:
                os.rmdir(slot)
            except OSError:
                pass
    try:
        os.rmdir(run_dir)
    except OSError:
        pass


def main() -> int:
    """Track registrations until end of file, then sweep what is registered."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    registered: list[str] = []
    pending = b""
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            path = os.fsdecode(line[1:])
            if line[:1] == b"+" and path not in registered:
                registered.append(path)
            elif line[:1] == b"-" and path in registered:
                registered.remove(path)
    for run_dir in registered:
        _sweep(run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
