"""A small mutation run over the gate, qualification, coverage and merge: each rule weakened once.

Usage: python scripts/mutate.py [--only M3,M12d] [--full]

Each mutant is one textual edit of one module. The script applies it, runs the
tests that speak of that rule (stopping at the first failure), restores the file
byte for byte, and prints whether the mutant was killed and by which test. With
--full, a mutant the relevant tests let through is tried against the whole
suite before it is called a survivor. The edits are listed below, verbatim.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
RELEVANT = (
    "tests/claims",
    "tests/evidence",
    "tests/coverage",
    "tests/cli/test_shard_merge.py",
    "tests/cli/test_run_command.py",
    "tests/contract/test_contract_gates.py",
    "tests/test_verdicts.py",
    "tests/test_own_fixtures.py",
)


class Mutant(NamedTuple):
    name: str
    path: str
    old: str
    new: str
    rule: str


MUTANTS = (
    Mutant(
        "M12",
        "agentic_evals/judge/gate.py",
        "gate = readiness if capability is None "
        "else worse(readiness, capability.aggregate_readiness)",
        "gate = readiness",
        "the gate ignores the claims",
    ),
    Mutant(
        "M12b",
        "agentic_evals/judge/cases.py",
        "return max(a, b, key=READINESS.index)",
        "return min(a, b, key=READINESS.index)",
        "the gate takes the better of case and claim readiness",
    ),
    Mutant(
        "M12c",
        "agentic_evals/reports/model/outcomes.py",
        'Readiness = Literal["READY", "USABLE_WITH_GAPS", "NOT_ESTABLISHED", "NOT_READY"]',
        'Readiness = Literal["READY", "USABLE_WITH_GAPS", "NOT_READY", "NOT_ESTABLISHED"]',
        "not knowing ranks worse than knowing the subject is broken",
    ),
    Mutant(
        "M12d",
        "agentic_evals/judge/merge.py",
        "bases = merged_bases([report.capability_readiness for report in reports], cases)",
        "bases = None",
        "the merged gate ignores the claims",
    ),
    Mutant(
        "M11",
        "agentic_evals/judge/cases.py",
        'if all(case.outcome == "PASS" for case in required):',
        'if all(case.outcome in ("PASS", "BLOCKED") for case in required):',
        "a required BLOCKED case allows READY",
    ),
    Mutant(
        "M11b",
        "agentic_evals/judge/cases.py",
        "        return NO_REQUIRED_CASES",
        '        return "NOT_READY"',
        "nothing executed reads NOT_READY instead of NOT_ESTABLISHED",
    ),
    Mutant(
        "M11c",
        "agentic_evals/judge/cases.py",
        'elif seen == {"PASS"} or seen == {"PASS", "INFRA_BLOCKED"}:',
        'elif seen == {"PASS"}:',
        "passes around infrastructure-blocked trials make a BLOCKED case",
    ),
    Mutant(
        "G1",
        "agentic_evals/judge/gate.py",
        "required_case_count=sum(1 for case in cases if case.required),",
        "required_case_count=len(cases),",
        "optional cases count as required in the report",
    ),
    Mutant(
        "M2",
        "agentic_evals/evidence/qualification.py",
        "    if not readbacks:",
        "    if False:",
        "a live case without a readback still qualifies",
    ),
    Mutant(
        "M2b",
        "agentic_evals/evidence/qualification.py",
        "    if analysis.stubs:",
        "    if False:",
        "stub inputs under fixtures/ no longer disqualify",
    ),
    Mutant(
        "M2c",
        "agentic_evals/evidence/checks.py",
        'specific = name == "stdout_excludes" and bool(entry) and not is_generic_marker(entry)',
        'specific = name == "stdout_excludes" and bool(entry)',
        "a generic stdout_excludes marker counts as a readback",
    ),
    Mutant(
        "Q1",
        "agentic_evals/evidence/qualification.py",
        "fault = bool(analysis.entrypoints) and case.type in HOSTILE_TYPES",
        "fault = bool(analysis.entrypoints)",
        "a downgraded positive case counts as fault-injected",
    ),
    Mutant(
        "Q2",
        "agentic_evals/evidence/anti_slop.py",
        "    if len(why_not) == len(real):",
        "    if not real:",
        "a real-world case that reaches no entrypoint satisfies the gate",
    ),
    Mutant(
        "W0",
        "agentic_evals/evidence/checks.py",
        "asserts = bool(changes.added or changes.changed or changes.removed or changes.only)",
        "asserts = True",
        "an empty workspace_changes assertion can fail and reads back",
    ),
    Mutant(
        "M3",
        "agentic_evals/evidence/checks.py",
        "        if len(named) == 1:",
        "        if len(named) >= 1:",
        "an artifact path naming two claims counts for both",
    ),
    Mutant(
        "M3b",
        "agentic_evals/judge/capability.py",
        "    if facts.live_qualified and not facts.carries_its_claims:",
        "    if False:",
        "a shared live case counts for every claim it supports",
    ),
    Mutant(
        "M3c",
        "agentic_evals/evidence/checks.py",
        "    return not (check.absent or check.exists is False)",
        "    return True",
        "an absent check counts as an artifact the case carries",
    ),
    Mutant(
        "S1",
        "agentic_evals/evidence/facts.py",
        "    return not entry.ineligible and entry.effective_evidence_class == evidence_class",
        "    return entry.effective_evidence_class == evidence_class",
        "an ineligible supporting case fills a claim's slot",
    ),
    Mutant(
        "M4",
        "agentic_evals/judge/exemptions.py",
        "    return today > expires",
        "    return today >= expires",
        "a date-only expiry lapses at the start of its day",
    ),
    Mutant(
        "M4b",
        "agentic_evals/judge/exemptions.py",
        "        return now >= expires",
        "        return now > expires",
        "an exemption with a time lapses only after its instant",
    ),
    Mutant(
        "M8",
        "agentic_evals/evidence/checks.py",
        'found = [Check("exit_code", "/expected/exit_code", expected.exit_code != 0, False)]',
        'found = [Check("exit_code", "/expected/exit_code", True, False)]',
        "a bare exit_code 0 counts as a check that can fail",
    ),
    Mutant(
        "M8b",
        "agentic_evals/coverage/guards.py",
        "    if not case.required:",
        "    if False:",
        "a required: false case may guard a seam",
    ),
    Mutant(
        "C1",
        "agentic_evals/coverage/analysis.py",
        "capable = [case for case in listing if not case.weak_reasons]",
        "capable = list(listing)",
        "a case that cannot fail covers a seam",
    ),
    Mutant(
        "R1",
        "agentic_evals/judge/merge.py",
        "    _check_duplicates(files)\n",
        "",
        "merge accepts a case reported twice",
    ),
    Mutant(
        "R2",
        "agentic_evals/judge/merge.py",
        "        if len(file.report.cases) != expected:",
        "        if False:",
        "merge accepts a shard run on another selection of cases",
    ),
)


def pytest(args: list[str]) -> tuple[bool, str]:
    """Run pytest; (passed, the first failing test or '')."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
    return done.returncode == 0, failed.group(1) if failed else ""


def run(mutant: Mutant, *, full: bool) -> str:
    path = REPO / mutant.path
    original = path.read_bytes()
    text = original.decode("utf-8")
    if text.count(mutant.old) != 1:
        return f"NOT APPLIED ({mutant.old!r} found {text.count(mutant.old)} times)"
    try:
        path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
        passed, killer = pytest(list(RELEVANT))
        if passed and full:
            passed, killer = pytest([])
    finally:
        path.write_bytes(original)
    return "SURVIVED" if passed else f"killed by {killer}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="mutant names, comma separated")
    parser.add_argument("--full", action="store_true", help="try survivors on the whole suite")
    args = parser.parse_args(argv)
    wanted = {name for name in args.only.split(",") if name}
    survivors = 0
    for mutant in MUTANTS:
        if wanted and mutant.name not in wanted:
            continue
        verdict = run(mutant, full=args.full)
        survivors += not verdict.startswith("killed")
        print(f"{mutant.name:5} {mutant.path}: {mutant.rule}: {verdict}", flush=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "agentic_evals"], cwd=REPO,
                           capture_output=True, text=True, check=False).stdout  # fmt: skip
    if dirty:
        print(f"the package was not restored:\n{dirty}", file=sys.stderr)
        return 2
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
