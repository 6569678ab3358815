"""Resuming a run (``evaluate`` with ``RunOptions.resume``): what is kept, what runs again,
what counts as a change, and the reports that cannot be resumed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from builders import case, trial_report
from resume_helpers import SKILL, logged, logged_fixture, ran, resume, run, save, trial_log, write
from resume_helpers import verdicts_and_counts as verdicts

from agentic_evals import __version__
from agentic_evals.evaluation.resume import ResumeRefused
from agentic_evals.evaluation.resume_source import (
    ResumeError,
    Selection,
    read_resume_report,
    resumed_selection,
)
from agentic_evals.judge.merge import ReportFile, merge_reports
from agentic_evals.judge.shard import Shard
from agentic_evals.reports.model import Report


def cut(report: Report, keep: dict[str, int]) -> Report:
    """``report`` as an interrupted run would have left it: each case keeps its first
    ``keep[name]`` trials (every trial when not named)."""
    cases = []
    for record in report.cases:
        trials = record.trials[: keep.get(record.name, len(record.trials))]
        outcome = record.outcome if len(trials) == len(record.trials) else "NOT_TESTED"
        cases.append(record.model_copy(update={"trials": trials, "outcome": outcome}))
    return report.model_copy(update={"cases": cases, "interrupted": "SIGTERM"})


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return trial_log(tmp_path)


def test_a_resumed_run_runs_only_the_trials_its_report_lacks(tmp_path: Path, log: Path) -> None:
    path = write(tmp_path, logged_fixture(log, ("a", "fails", "refuses", "b")))
    whole = run(path)
    log.unlink()
    partial = save(cut(whole, {"fails": 1, "refuses": 0, "b": 0}), tmp_path / "partial.json")
    resumed = resume(path, partial)
    missing = [
        "fails#2",
        "fails#3",
        *(f"{name}#{n}" for name in ("b", "refuses") for n in (1, 2, 3)),
    ]
    assert ran(log) == sorted(missing)
    assert verdicts(resumed) == verdicts(whole)
    assert resumed.readiness == whole.readiness != "READY" and resumed.interrupted is None
    reused = {t.trial_id: t.reused_from for c in resumed.cases for t in c.trials if t.reused}
    assert reused == {
        **{f"{SKILL}::a#{n}": whole.run_id for n in (1, 2, 3)},
        f"{SKILL}::fails#1": whole.run_id,
    }
    source = resumed.resumed_from
    assert source is not None and source.run_id == whole.run_id
    assert (source.kept_trials, source.runs, source.changed_cases) == (4, [whole.run_id], [])
    assert source.path == str(partial) and len(source.report_sha256) == 64
    assert resumed.run_id != whole.run_id


def test_kept_trials_name_the_run_they_ran_in_along_a_chain(tmp_path: Path, log: Path) -> None:
    path = write(tmp_path, logged_fixture(log, ("a", "b")))
    whole = run(path)
    first = save(cut(whole, {"b": 0}), tmp_path / "first.json")
    second = resume(path, first)
    middle = save(cut(second, {"b": 1}), tmp_path / "second.json")
    last = resume(path, middle)
    origin = {t.trial_id: t.reused_from for c in last.cases for t in c.trials}
    assert origin[f"{SKILL}::a#1"] == whole.run_id  # kept twice, it ran in the first run
    assert origin[f"{SKILL}::b#1"] == second.run_id
    assert origin[f"{SKILL}::b#2"] is None  # it ran in this run
    assert last.resumed_from is not None
    assert last.resumed_from.runs == [whole.run_id, second.run_id]


def test_not_tested_trials_run_again_and_infra_blocked_ones_only_with_retry_infra(
    tmp_path: Path, log: Path
) -> None:
    flag = tmp_path / "service-up"
    flaky_service = case(
        "calls",
        command=logged(log, f'test -e {flag} || {{ echo "connection refused"; exit 1; }}'),
        infra_blocked_when=["connection refused"],
    )
    document = logged_fixture(log, ("a",))
    document["cases"].append(flaky_service)
    path = write(tmp_path, document)
    first = run(path)
    assert [t.outcome for t in first.cases[1].trials] == ["INFRA_BLOCKED"] * 3
    # A NOT_TESTED trial (a, #2) is no evidence: it runs again in any case.
    trials = list(first.cases[0].trials)
    trials[1] = trials[1].model_copy(update={"outcome": "NOT_TESTED"})
    cases = [first.cases[0].model_copy(update={"trials": trials}), first.cases[1]]
    report = save(first.model_copy(update={"cases": cases}), tmp_path / "first.json")
    flag.touch()
    log.unlink()
    kept = resume(path, report)
    assert ran(log) == ["a#2"]
    assert kept.cases[1].outcome == "BLOCKED"
    assert kept.resumed_from is not None and not kept.resumed_from.retry_infra
    log.unlink()
    retried = resume(path, report, retry_infra=True)
    assert ran(log) == ["a#2", "calls#1", "calls#2", "calls#3"]
    assert retried.cases[1].outcome == "PASS" and retried.readiness == "READY"
    assert retried.resumed_from is not None and retried.resumed_from.retry_infra


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda c: c["expected"].update(stdout_contains=["x"]), "its oracle changed (expected)"),
        (lambda c: c.update(timeout_seconds=9), "its test source changed"),
    ],
)
def test_a_changed_case_is_refused_naming_it_and_nothing_runs(
    tmp_path: Path, log: Path, edit: Any, named: str
) -> None:
    document = logged_fixture(log, ("a", "b"))
    path = write(tmp_path, document)
    report = save(cut(run(path), {"b": 1}), tmp_path / "report.json")
    before = report.read_bytes()
    edit(document["cases"][1])
    write(tmp_path, document)
    log.unlink()
    with pytest.raises(ResumeRefused) as refused:
        resume(path, report)
    message = str(refused.value)
    assert f"case {SKILL}::b: {named}" in message
    assert f"the fixture {path} changed" in message and f"{SKILL}::a" not in message
    assert "--resume-changed-cases" in message
    assert ran(log) == [] and report.read_bytes() == before


def test_resume_changed_cases_runs_just_the_changed_case_in_full(tmp_path: Path, log: Path) -> None:
    document = logged_fixture(log, ("a", "b", "c"))
    path = write(tmp_path, document)
    report = save(cut(run(path), {"c": 1}), tmp_path / "report.json")
    document["cases"][1]["expected"]["stdout_contains"] = []
    write(tmp_path, document)
    log.unlink()
    resumed = resume(path, report, changed=True)
    assert ran(log) == ["b#1", "b#2", "b#3", "c#2", "c#3"]
    assert resumed.resumed_from is not None
    assert resumed.resumed_from.changed_cases == [f"{SKILL}::b"]
    assert not any(t.reused for t in resumed.cases[1].trials)
    assert all(t.reused for t in resumed.cases[0].trials)
    assert (
        resumed.cases[1].oracle_sha256
        != json.loads(report.read_text())["cases"][1]["oracle_sha256"]
    )


def test_a_changed_skill_file_is_refused_naming_it(tmp_path: Path, log: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("echo one\n")
    document = logged_fixture(log, ("a",))
    document["cases"].append(case("script", command=["bash", "run.sh"]))
    path = write(tmp_path, document)
    report = save(run(path), tmp_path / "report.json")
    script.write_text("echo two\n")
    with pytest.raises(ResumeRefused, match=rf"case {SKILL}::script: skill file run.sh changed"):
        resume(path, report)
    # The fixture itself did not change: only the file is named.
    with pytest.raises(ResumeRefused) as refused:
        resume(path, report)
    assert "the fixture" not in str(refused.value)
    resumed = resume(path, report, changed=True)
    assert resumed.resumed_from is not None
    assert resumed.resumed_from.changed_cases == [f"{SKILL}::script"]


def test_a_changed_workspace_changes_every_case(tmp_path: Path, log: Path) -> None:
    (tmp_path / "seed").mkdir()
    document = logged_fixture(log, ("a", "b"), workspace={"input": "seed"})
    path = write(tmp_path, document)
    report = save(run(path), tmp_path / "report.json")
    (tmp_path / "other").mkdir()
    document["workspace"] = {"input": "other"}
    write(tmp_path, document)
    with pytest.raises(ResumeRefused, match="its workspace, which every trial runs in, changed"):
        resume(path, report)
    log.unlink()
    resumed = resume(path, report, changed=True)
    assert len(ran(log)) == 6
    assert resumed.resumed_from is not None and resumed.resumed_from.kept_trials == 0


def test_cases_added_and_removed_are_changes(tmp_path: Path, log: Path) -> None:
    document = logged_fixture(log, ("a", "b"))
    path = write(tmp_path, document)
    report = save(run(path), tmp_path / "report.json")
    document["cases"][1] = case("new", command=logged(log))
    write(tmp_path, document)
    with pytest.raises(ResumeRefused) as refused:
        resume(path, report)
    assert f"case {SKILL}::new: not in {report}" in str(refused.value)
    assert f"case {SKILL}::b: no longer in the fixture" in str(refused.value)
    log.unlink()
    resumed = resume(path, report, changed=True)
    assert ran(log) == ["new#1", "new#2", "new#3"]
    assert [c.name for c in resumed.cases] == ["a", "new"]


def test_a_report_of_another_fixture_is_refused(tmp_path: Path, log: Path) -> None:
    path = write(tmp_path, logged_fixture(log, ("a",)))
    report = save(run(path), tmp_path / "report.json")
    other = logged_fixture(log, ("a",))
    other["skill"] = "elsewhere"
    other_path = write(tmp_path / "other", other)
    with pytest.raises(ResumeError, match="is a report of skill 'probe', not of .*'elsewhere'"):
        resume(other_path, report, changed=True)


def _edited(report: Path, edit: Any) -> Path:
    document = json.loads(report.read_text())
    edit(document)
    target = report.with_name("edited.json")
    target.write_text(json.dumps(document, indent=2))
    return target


def _trial(case: int, trial: int, **fields: Any) -> Any:
    """An edit of one trial of a report document."""
    return lambda document: document["cases"][case]["trials"][trial].update(fields)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_text(p.read_text()[:900]), r"not JSON \(truncated"),
        (lambda p: p.write_text(""), r"not JSON \(truncated"),
        (lambda p: p.unlink(), "cannot read"),
        (lambda p: _edited(p, lambda d: d.pop("schema")), "not an agentic_evals.report.v2 report"),
        (
            lambda p: _edited(p, lambda d: d.update(schema="agentic_evals.report.v1")),
            "written by an incompatible version of agentic-evals",
        ),
        (
            lambda p: _edited(p, lambda d: d["runner"].update(version="0.0.1")),
            rf"/runner/version: written by agentic-evals 0.0.1, this is {__version__}",
        ),
        (lambda p: _edited(p, lambda d: d.pop("cases")), r"not a valid .* report: /cases"),
        (
            lambda p: _edited(
                p, lambda d: d["cases"][0]["trials"][1].update(trial_id="probe::a#1")
            ),
            r"/cases/0/trials/1/trial_id: 'probe::a#1' is not one of probe::a#1 to #3, once",
        ),
        (
            lambda p: _edited(
                p, lambda d: d["cases"][0]["trials"][0].update(trial_id="probe::a#4")
            ),
            r"/cases/0/trials/0/trial_id",
        ),
        (
            lambda p: _edited(p, lambda d: d["cases"][1].update(case_id="probe::a")),
            r"/cases/1/case_id: 'probe::a' appears twice",
        ),
        (
            lambda p: _edited(p, _trial(0, 0, reused=True)),
            "a reused trial names the run it ran in",
        ),
    ],
)
def test_reports_that_cannot_be_resumed_are_refused_naming_the_file(
    tmp_path: Path, log: Path, damage: Any, message: str
) -> None:
    path = write(tmp_path, logged_fixture(log, ("a", "b")))
    report = save(run(path), tmp_path / "report.json")
    edited = damage(report)
    damaged = edited if isinstance(edited, Path) else report
    with pytest.raises(ResumeError, match=message) as refused:
        read_resume_report(damaged)
    assert str(refused.value).startswith(str(damaged))


def test_a_resumed_run_runs_the_selection_of_the_report_it_resumes(
    tmp_path: Path, log: Path
) -> None:
    path = write(tmp_path, logged_fixture(log, ("a", "b", "c", "d")))
    shard = save(run(path, shard=Shard(2, 2)), tmp_path / "shard.json")
    request = read_resume_report(shard)
    assert resumed_selection(request, Selection((), None)) == Selection((), Shard(2, 2))
    assert resumed_selection(request, Selection((), Shard(2, 2))) == Selection((), Shard(2, 2))
    with pytest.raises(ResumeError, match="ran shard 2/2, this run selects shard 1/2"):
        resumed_selection(request, Selection((), Shard(1, 2)))
    with pytest.raises(ResumeError, match="ran shard 2/2, this run selects the cases a"):
        resumed_selection(request, Selection(("a",), None))
    focused = save(run(path, focus=("c", "a")), tmp_path / "focused.json")
    request = read_resume_report(focused)
    assert resumed_selection(request, Selection(("a", "c"), None)).focus == ("c", "a")
    with pytest.raises(ResumeError, match="ran the cases a, c, this run selects shard 1/1"):
        resumed_selection(request, Selection((), Shard(1, 1)))
    log.unlink()
    resumed = resume(path, shard)
    assert ran(log) == [] and resumed.shard is not None and resumed.shard.index == 2
    assert [c.name for c in resumed.cases] == ["b", "d"]


def test_a_trial_is_reused_exactly_when_it_names_the_run_it_ran_in() -> None:
    assert trial_report(reused=True, reused_from="r1").reused_from == "r1"
    for fields in ({"reused": True}, {"reused_from": "r1"}):
        with pytest.raises(ValueError, match="a reused trial names the run it ran in"):
            trial_report(**fields)


def test_a_merge_of_a_resumed_shard_keeps_its_marks_and_resumes_nothing(
    tmp_path: Path, log: Path
) -> None:
    path = write(tmp_path, logged_fixture(log, ("a", "fails", "c", "d")))
    shards = [run(path, shard=Shard(k, 2)) for k in (1, 2)]
    whole = merge_reports([ReportFile(tmp_path / f"s{i}.json", s) for i, s in enumerate(shards)])
    cut_second = save(cut(shards[1], {"d": 1}), tmp_path / "s2.json")
    again = resume(path, cut_second)
    merged = merge_reports(
        [ReportFile(tmp_path / "s1.json", shards[0]), ReportFile(cut_second, again)]
    )
    assert merged.resumed_from is None and merged.shard is None
    assert verdicts(merged) == verdicts(whole)
    reused = [t.trial_id for c in merged.cases for t in c.trials if t.reused]
    assert reused == [f"{SKILL}::fails#{n}" for n in (1, 2, 3)] + [f"{SKILL}::d#1"]


def test_a_fixture_at_another_path_names_the_one_the_report_ran(tmp_path: Path, log: Path) -> None:
    document = logged_fixture(log, ("a",))
    report = save(run(write(tmp_path, document)), tmp_path / "report.json")
    document["cases"][0]["expected"]["stdout_contains"] = []
    moved = write(tmp_path / "moved", document)
    with pytest.raises(ResumeRefused) as refused:
        resume(moved, report)
    assert f"the fixture {moved} changed" in str(refused.value)
    assert f"which ran {tmp_path / 'agentic_eval.json'}" in str(refused.value)
