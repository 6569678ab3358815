"""What a run imports: libraries only the documents that need them pay for.

Import time is most of a short run's start-up, so these guard against a
module-level import creeping back in (no timings here; see benchmarks/).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """\
import json, sys
from agentic_evals.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def imported_by(*args: str) -> tuple[int, set[str], str]:
    """Exit code, top-level modules imported, and what the command printed (both streams)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True
    )
    *printed, last = done.stdout.splitlines()
    result = json.loads(last)
    return result["code"], set(result["modules"]), "\n".join(printed) + done.stderr


def fixture(folder: Path, name: str = "f.json", text: str | None = None) -> Path:
    document = {
        "version": 2,
        "skill": "probe",
        "eval_kind": "runner_selftest",
        "trials": 1,
        "cases": [
            {"name": "ok", "type": "positive", "command": ["true"], "expected": {"exit_code": 0}}
        ],
    }
    path = folder / name
    path.write_text(text if text is not None else json.dumps(document))
    return path


def test_a_valid_json_fixture_runs_without_yaml_or_jsonschema(tmp_path: Path) -> None:
    code, modules, _ = imported_by("run", str(fixture(tmp_path)), "-o", str(tmp_path / "r.json"))
    assert code == 0
    assert "yaml" not in modules
    assert "jsonschema" not in modules


def test_a_yaml_fixture_and_a_json_finding_still_get_what_they_need(tmp_path: Path) -> None:
    document = json.loads(fixture(tmp_path).read_text())
    yaml_text = "# a YAML comment\n" + json.dumps(document)
    code, modules, _ = imported_by("validate", str(fixture(tmp_path, "f.yaml", yaml_text)))
    assert code == 0
    assert "yaml" in modules
    broken = fixture(tmp_path, "bad.json", '{"version": 2,\n "trials": "three"}')
    code, _, printed = imported_by("validate", str(broken))
    assert code == 2
    # The finding is located although a valid JSON fixture never loads the YAML walk.
    assert f"{broken}:2:2 /trials AE-SCHEMA-TYPE" in printed
