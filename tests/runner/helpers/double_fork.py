"""Leave a daemon behind by the classic double fork.

Usage: double_fork.py [hang | quiet PIDFILE]

The grandchild starts a new session and sleeps. By default the leader prints
the grandchild's pid and exits; with ``hang`` it then sleeps too. With
``quiet`` it prints nothing (so the runner never wakes up to look at its
children), writes "GRANDCHILD MIDDLE" pids to PIDFILE, and exits while the
middle process is an unreaped zombie.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def main() -> None:
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(write_end, f"{os.getpid()}\n".encode())
            time.sleep(300)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        grandchild = pipe.readline().strip()
    if sys.argv[1:2] == ["quiet"]:
        os.waitid(os.P_PID, middle, os.WEXITED | os.WNOWAIT)
        Path(sys.argv[2]).write_text(f"{grandchild} {middle}\n")
        return
    print(grandchild, flush=True)
    if sys.argv[1:] == ["hang"]:
        time.sleep(300)


if __name__ == "__main__":
    main()
