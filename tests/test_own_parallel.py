"""``./run.sh run fixtures/agentic_eval.json -j 4`` gives the serial run's verdicts.

The benchmark repeats the parallel run 20 times (``./run.sh bench --only f``);
here one parallel run is compared with one serial run.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def own_run(output: Path, *options: str) -> dict[str, Any]:
    done = subprocess.run(
        ["./run.sh", "run", "fixtures/agentic_eval.json", "-o", str(output), *options],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(output.read_text())
    assert isinstance(report, dict)
    return report


def verdicts(report: dict[str, Any]) -> list[Any]:
    cases = [
        (c["name"], c["outcome"], c["flaky"], [(t["outcome"], [p["code"] for p in t["problems"]])
                                               for t in c["trials"]])
        for c in report["cases"]
    ]  # fmt: skip
    return [report["readiness"], report["outcome_counts"], cases]


def test_the_own_evaluation_in_parallel_equals_the_serial_one(tmp_path: Path) -> None:
    serial = own_run(tmp_path / "serial.json")
    parallel = own_run(tmp_path / "parallel.json", "-j", "4")
    assert serial["readiness"] == "READY"
    assert verdicts(parallel) == verdicts(serial)
