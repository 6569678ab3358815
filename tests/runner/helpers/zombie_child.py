"""Exit while a child that already died is still unreaped (a zombie)."""

from __future__ import annotations

import os


def main() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    # WNOWAIT: wait until the child has died but leave it unreaped.
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    print(pid, flush=True)


if __name__ == "__main__":
    main()
