"""``./run.sh run fixtures/agentic_eval.json -j 4`` gives the serial run's verdicts.

The benchmark repeats the parallel run 20 times (``./run.sh bench --only g``);
here one parallel run is compared with one serial run, by the same comparison.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from isolation_bench import own_run, verdicts  # noqa: E402 - the benchmark's own comparison


def test_the_own_evaluation_in_parallel_equals_the_serial_one(tmp_path: Path) -> None:
    serial = own_run(tmp_path / "serial.json")
    parallel = own_run(tmp_path / "parallel.json", "-j", "4")
    assert serial["readiness"] == "READY"
    assert verdicts(parallel) == verdicts(serial)
