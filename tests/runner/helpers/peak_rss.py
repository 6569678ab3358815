"""Run one trial in a fresh interpreter and print byte counts and peak RSS (KiB).

Usage: peak_rss.py CWD SHELL_COMMAND

Prints: exit code, stdout bytes, stderr bytes, ru_maxrss, VmHWM. ru_maxrss can
carry over the parent's size from before exec; VmHWM covers this image only.
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

from agentic_evals.runner.process import run_process


def main() -> None:
    cwd, command = sys.argv[1], sys.argv[2]
    result = run_process(["sh", "-c", command], cwd=Path(cwd), env=dict(os.environ), timeout=600)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status = Path("/proc/self/status").read_text().splitlines()
    hwm_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    counts = (result.stdout.total_bytes, result.stderr.total_bytes)
    print(result.exit_code, *counts, peak_kib, hwm_kib)
    result.close()


if __name__ == "__main__":
    main()
