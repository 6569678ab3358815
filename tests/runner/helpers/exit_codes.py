"""Run ``true`` and ``false`` as trials several times; print each exit code.

Usage: exit_codes.py N — used under an outer ``strace -f`` to check that a
traced tree still yields every exit status.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from agentic_evals.runner.process import run_process


def main() -> None:
    codes = []
    for index in range(int(sys.argv[1])):
        program = "true" if index % 2 == 0 else "false"
        result = run_process([program], cwd=Path("/"), env=dict(os.environ), timeout=60)
        codes.append(str(result.exit_code))
        result.close()
    print(" ".join(codes))


if __name__ == "__main__":
    main()
