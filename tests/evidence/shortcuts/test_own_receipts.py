"""Shortcut family "Receipts the case writes itself": the readback must come from the skill."""

from __future__ import annotations

from pathlib import Path

from shortcut_helpers import READ_BACK, live, live_case, run_skill

from agentic_evals import codes

WORKS = "#!/bin/bash\nmkdir -p out\ncp ../SKILL.md out/copy.md\necho deployed\n"
"""A program that does something, but never writes ``out/r.json``."""
RECEIPT = "mkdir -p out; echo '{\"ok\": true}' > out/r.json"


def test_a_receipt_the_wrapper_writes_is_no_readback(tmp_path: Path) -> None:
    command = ["bash", "-c", f"bash ../works.sh; {RECEIPT}"]
    report = run_skill(tmp_path, {"works.sh": WORKS}, live_case(command))
    case = live(report)
    assert case.outcome == "PASS"
    assert case.evidence_disqualifiers == [codes.LIVE_NO_READBACK]
    trace = case.trials[0].file_trace
    assert trace is not None
    assert (trace.entrypoints, trace.artifacts) == (["works.sh"], {"out/r.json": "wrapper"})


def test_a_receipt_written_before_the_program_is_no_readback_either(tmp_path: Path) -> None:
    command = ["bash", "-c", f"{RECEIPT}; bash ../works.sh"]
    report = run_skill(tmp_path, {"works.sh": WORKS}, live_case(command))
    assert live(report).evidence_disqualifiers == [codes.LIVE_NO_READBACK]


def test_a_committed_receipt_nothing_writes_is_no_readback(tmp_path: Path) -> None:
    files = {"works.sh": WORKS, "fixtures/out/r.json": {"ok": True}}
    # The program's own line makes the case more than its receipt, so the load-time gate lets
    # it run; the receipt passes on the null trial and the trace sees that nothing wrote it.
    expected = {**READ_BACK, "stdout_contains": ["deployed"]}
    report = run_skill(tmp_path, files, live_case(["bash", "../works.sh"], expected))
    case = live(report)
    assert case.outcome == "PASS" and not case.weak
    assert case.vacuous_checks == ["/cases/0/expected/artifacts/0"]
    assert codes.LIVE_NO_READBACK in case.evidence_disqualifiers
    trace = case.trials[0].file_trace
    assert trace is not None and trace.artifacts == {"out/r.json": "untouched"}


def test_a_receipt_the_program_writes_through_a_child_counts(tmp_path: Path) -> None:
    program = '#!/bin/bash\nmkdir -p out\nbash -c \'python3 -c "print(1)" >/dev/null; ' + (
        'echo {\\"ok\\": true} > out/r.json\'\n'
    )
    report = run_skill(tmp_path, {"works.sh": program}, live_case(["bash", "../works.sh"]))
    case = live(report)
    assert (case.outcome, case.live_qualified, case.evidence_disqualifiers) == ("PASS", True, [])
