"""Benchmark figure of file tracing, for bench.py: (h) a traced trial against the same untraced.

A generated skill whose ``run.sh`` runs a bash loop of 300 short programs
(``/bin/true``) and writes one artifact; one real-world case (traced) of
``TRIALS`` trials, and a negative case of one quick trial each that is not
traced. The same ``run`` is timed with the default tracer (fanotify where the
trial runs in an overlay view as root, else strace) and with
``AGENTIC_EVALS_TRACER=none`` (the trials run untraced, and are BLOCKED),
end to end: the start-up both pay makes the ratio, if anything, smaller
than the per-trial one. For information: the same with strace forced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TRACE_BOUND = 1.5
TRIALS = 6
PROGRAMS = 300
RUN_SH = f"""#!/bin/bash
set -e
if [ "$1" = --bad ]; then echo "unknown option --bad" >&2; exit 2; fi
for i in $(seq {PROGRAMS}); do /bin/true; done
mkdir -p out
printf '{{"programs": {PROGRAMS}}}' > out/result.json
"""


def generate_skill(root: Path) -> Path:
    """Write the skill and its fixture under ``root/skill``; return the fixture's path."""
    skill = root / "skill"
    (skill / "fixtures").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: loop\ndescription: A loop.\n---\n# loop\n")
    run = skill / "run.sh"
    run.write_text(RUN_SH)
    run.chmod(0o755)
    artifact = {"path": "out/result.json", "json_pointer": "/programs", "equals": PROGRAMS}
    fixture = {
        "version": 2,
        "skill": "loop",
        "trials": TRIALS,
        "cases": [
            {
                "name": "loop",
                "type": "positive",
                "real_world": True,
                "command": ["bash", "../run.sh"],
                "expected": {"exit_code": 0, "artifacts": [artifact]},
            },
            {
                "name": "bad-option",
                "type": "negative",
                "evidence_class": "deterministic",
                "command": ["bash", "../run.sh", "--bad"],
                "expected": {"exit_code": 2, "stderr_contains": ["unknown option"]},
            },
        ],
    }
    path = skill / "fixtures" / "agentic_eval.json"
    path.write_text(json.dumps(fixture, indent=2))
    return path


def figure_h(bench: Any, commands: Any) -> None:
    """(h) a traced trial of a fork-heavy loop costs at most 1.5x the untraced one."""
    fixture = generate_skill(bench.tmp / "trace")
    report = bench.tmp / "trace" / "report.json"

    def run(name: str, tracer: str) -> Any:
        argv = ["env", f"AGENTIC_EVALS_TRACER={tracer}", commands.CLI, "run", str(fixture)]
        return commands.Command(name, [*argv, "-o", str(report)], fixture.parent, frozenset({0, 1}))

    traced, untraced = run("traced", "auto"), run("untraced", "none")
    head = (
        f"(h) run of {TRIALS} traced trials of a loop of {PROGRAMS} programs, "
        "default tracer vs none"
    )
    commands.measure_ratio(bench, head, (traced, untraced), TRACE_BOUND)
    method = _method(report, traced, commands)
    bench.emit(f"(h) info: the default tracer here: {method}", None)
    head = "(h) info: the same with AGENTIC_EVALS_TRACER=strace vs none"
    commands.measure_ratio(bench, head, (run("strace", "strace"), untraced), None)


def _method(report: Path, command: Any, commands: Any) -> str:
    commands.probe(command)
    try:
        data = json.loads(report.read_text())
    except (OSError, ValueError) as error:
        return f"unknown ({error})"
    for case in data.get("cases", []):
        for trial in case.get("trials", []):
            trace = trial.get("file_trace")
            if trace:
                return str(trace.get("method"))
    return "none recorded"
