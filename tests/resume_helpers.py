"""Fixtures whose trials say that they ran, and what a resumed report must share with a
whole run: its verdicts and its counts."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from builders import case, fixture, write_fixture

from agentic_evals.evaluation.evaluate import RunOptions, evaluate
from agentic_evals.evaluation.resume_source import read_resume_report
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.reports.json_out import write_model_atomic
from agentic_evals.reports.model import Report

SKILL = "probe"


def logged(log: Path, then: str = "true", *, sleep: float = 0.0) -> list[str]:
    """A command that appends ``<case>#<trial>`` to ``log`` as it starts, then runs ``then``."""
    pause = f"sleep {sleep}; " if sleep else ""
    script = f'echo "$AGENTIC_EVALS_CASE#$AGENTIC_EVALS_TRIAL" >> {log}; {pause}{then}'
    return ["bash", "-c", script]


def trial_log(tmp_path: Path) -> Path:
    """Where the trials log what ran: beside the skill tree, since each trial's private view
    keeps what it writes inside the tree to itself."""
    folder = tmp_path.with_name(f"{tmp_path.name}-log")
    folder.mkdir(exist_ok=True)
    return folder / "trials.log"


def logged_fixture(
    log: Path, names: Sequence[str] = ("a", "b", "c"), trials: int = 3, sleep: float = 0.0,
    **top: Any,
) -> dict[str, Any]:  # fmt: skip
    """Cases that log each trial; ``fails`` fails (exit 1 expected 0), ``refuses`` is negative."""
    cases = []
    for name in names:
        if name.startswith("fails"):
            cases.append(case(name, command=logged(log, "exit 1", sleep=sleep)))
        elif name.startswith("refuses"):
            cases.append(
                case(name, "negative", logged(log, "exit 2", sleep=sleep), {"exit_code": 2})
            )
        else:
            cases.append(case(name, command=logged(log, sleep=sleep)))
    return fixture(cases, skill=SKILL, eval_kind="runner_selftest", trials=trials, **top)


def ran(log: Path) -> list[str]:
    """The trials that started, as ``<case>#<trial>``, sorted; none when nothing ran."""
    return sorted(log.read_text().split()) if log.exists() else []


def run(path: Path, **options: Any) -> Report:
    """Evaluate the fixture at ``path`` as ``run`` would (gated unless focused)."""
    loaded = load_fixture(path, gates=not options.get("focus"))
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(**options)).report


def resume(path: Path, report: Path, **flags: Any) -> Report:
    """Evaluate the fixture at ``path`` resuming the report file ``report``."""
    request = read_resume_report(report, **flags)
    focus = tuple(request.report.focused_cases or ())
    loaded = load_fixture(path, gates=not focus)
    assert loaded.model is not None, [f.render() for f in loaded.findings]
    return evaluate(loaded, RunOptions(resume=request)).report


def save(report: Report, path: Path) -> Path:
    write_model_atomic(path, report)
    return path


def write(directory: Path, document: Mapping[str, Any]) -> Path:
    return write_fixture(directory, document)


def verdicts_and_counts(report: Mapping[str, Any] | Report) -> dict[str, Any]:
    """What a resumed run's report must share with the report of one whole run."""
    document = report.model_dump(mode="json") if isinstance(report, Report) else report
    keys = (
        "readiness", "case_readiness", "capability_readiness", "outcome_counts", "case_count",
        "required_case_count", "trial_count", "trials_per_case", "interrupted",
    )  # fmt: skip
    trial_rate = dict(document["metrics"]["trial_pass_rate"])
    return {
        **{key: document[key] for key in keys},
        "trial_pass_rate": trial_rate,
        "flaky": document["metrics"]["flaky_cases"],
        "pass_hat_k": document["metrics"]["pass_hat_k"],
        "cases": [
            (c["case_id"], c["outcome"], c["flaky"], c["passed_trials"], c["total_trials"],
             sorted((t["trial_id"], t["outcome"]) for t in c["trials"]))
            for c in document["cases"]
        ],
    }  # fmt: skip


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text())
    return document
