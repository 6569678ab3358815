"""Shortcut family "Stub inputs by another road": a stub read by any spelling disqualifies."""

from __future__ import annotations

from pathlib import Path

import pytest
from shortcut_helpers import HONEST, live, live_case, load_skill, run_skill

from agentic_evals import codes

READS = HONEST.replace('echo "deployed"', 'cat "${1:-/dev/null}" >/dev/null\necho "deployed"')
"""The honest program, reading the file it is given."""
FILES = {
    "reads.sh": READS,
    "fixtures/stub.csv": "a,b\n",
    "Fixtures/stub.csv": "a,b\n",
    "test-fixtures/stub.csv": "a,b\n",
}


@pytest.mark.parametrize(
    ("script", "opened"),
    [
        (
            'S=$(printf %s ../fix; printf tures); bash ../reads.sh "$S/stub.csv"',
            "fixtures/stub.csv",
        ),
        ("bash ../reads.sh ../fixture?/stub.csv", "fixtures/stub.csv"),
        ("bash ../reads.sh ../data/stub.csv", "fixtures/stub.csv"),
        (
            "cp stub.csv /tmp/ae-cp-$$ && bash ../reads.sh /tmp/ae-cp-$$; rm -f /tmp/ae-cp-$$",
            "fixtures/stub.csv",
        ),
        # Spelled at run time: named in the command, the load-time reading refuses them (below).
        ('D=$(printf Fix)tures; bash ../reads.sh "../$D/stub.csv"', "Fixtures/stub.csv"),
        ('D=test-$(printf fix)tures; bash ../reads.sh "../$D/stub.csv"', "test-fixtures/stub.csv"),
    ],
    ids=["built-at-run-time", "glob", "symlink", "copy-to-tmp", "capitalised", "test-fixtures"],
)
def test_a_stub_opened_by_any_road_disqualifies(tmp_path: Path, script: str, opened: str) -> None:
    case = live_case(["bash", "-c", script])
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "data").symlink_to("fixtures")  # a committed symlink to the stubs
    report = run_skill(tmp_path, FILES, case)
    result = live(report)
    assert result.outcome == "PASS"
    assert codes.LIVE_STUB_INPUT in result.evidence_disqualifiers
    trace = result.trials[0].file_trace
    assert trace is not None and trace.stub_opens == [opened]


def test_the_case_s_own_artifacts_under_fixtures_are_no_stubs(tmp_path: Path) -> None:
    report = run_skill(tmp_path, FILES, live_case(["bash", "../reads.sh"]))
    result = live(report)
    assert (result.live_qualified, result.evidence_disqualifiers) == (True, [])


@pytest.mark.parametrize("folder", ["Fixtures", "fixture", "test-fixtures", "test_fixture"])
def test_a_look_alike_stub_folder_named_in_the_command_is_refused_at_load(
    tmp_path: Path, folder: str
) -> None:
    files = {**FILES, f"{folder}/stub.csv": "a,b\n"}
    loaded = load_skill(
        tmp_path, files, live_case(["bash", "../reads.sh", f"../{folder}/stub.csv"])
    )
    findings = [f for f in loaded.findings if f.code == "AE-SLOP-NO-REAL-WORLD"]
    assert findings and f"../{folder}/stub.csv" in findings[0].message


def test_a_stub_named_in_the_env_is_refused_at_load(tmp_path: Path) -> None:
    case = live_case(
        ["bash", "-c", 'bash ../reads.sh "$STUB"'], env={"STUB": "../fixtures/stub.csv"}
    )
    loaded = load_skill(tmp_path, FILES, case)
    assert "AE-SLOP-NO-REAL-WORLD" in [f.code for f in loaded.findings]
