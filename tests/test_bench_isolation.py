"""The isolation benchmark's own measurement (figure (f)) runs and measures an overlay.

The benchmark is run by hand; this runs its per-trial view measurement on a
small tree, so that the script cannot break unseen. No time is asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from isolation_bench import VIEW_SCRIPT, view_fixture  # noqa: E402 - the benchmark's own script
from isolation_helpers import needs_overlay  # noqa: E402


@needs_overlay
def test_the_view_measurement_of_figure_f_runs_on_a_small_tree(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "file.txt").write_text("lower\n")
    path = view_fixture(tmp_path, "overlay", 3)
    done = subprocess.run(
        [sys.executable, "-c", VIEW_SCRIPT, str(path), "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["mode"] == "overlay"
    assert found["changes"] == {"added": ["one-file.txt"], "changed": [], "removed": []}
    assert found["median"] > 0
