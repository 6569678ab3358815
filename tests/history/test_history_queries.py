"""The history's queries, on SQLite and on a real PostgreSQL server: list, show, run
references, trend, flaky and prune."""

from __future__ import annotations

from typing import Any

import pytest
from history_helpers import ALPHA, BETA, CLAIM, record_all, variant

from agentic_evals.history.access import open_history, run_report
from agentic_evals.history.errors import AmbiguousRunError, UnknownRunError, UnknownTargetError
from agentic_evals.history.flaky import flaky_cases
from agentic_evals.history.prune import prune
from agentic_evals.history.queries import list_runs, show_run
from agentic_evals.history.resolve import resolve_run, resolve_run_id
from agentic_evals.history.trend import trend
from agentic_evals.judge.metrics import wilson_interval

SAME = {"test_source_sha256": "a" * 64, "oracle_sha256": "b" * 64}


def test_recording_is_keyed_by_run_id_and_idempotent(
    history_url: str, base_report: dict[str, Any]
) -> None:
    first = variant(base_report, "run-1", 1)
    edited = variant(base_report, "run-1", 1, outcomes={ALPHA: "FAIL"})
    outcomes = record_all(history_url, first, first, edited)
    assert [o.status for o in outcomes] == ["recorded", "already_recorded", "conflict"]
    with open_history(history_url) as store:
        runs = list_runs(store).runs
        assert [run.run_id for run in runs] == ["run-1"]
        detail = show_run(store, "run-1")
    # The conflicting report did not replace the recorded one.
    assert {case.case_id: case.outcome for case in detail.cases} == {ALPHA: "PASS", BETA: "PASS"}
    assert detail.claims[0].claim_id == CLAIM
    assert detail.claims[0].case_ids == [ALPHA, BETA]
    assert detail.run.trial_count == 4 and detail.run.passed_trials == 4


def test_list_is_newest_first_and_filters_by_skill_and_limit(
    history_url: str, base_report: dict[str, Any]
) -> None:
    other = {**variant(base_report, "run-other", 5), "skill": "other-skill"}
    record_all(
        history_url,
        variant(base_report, "run-2", 2),
        other,
        variant(base_report, "run-1", 1),
        variant(base_report, "run-3", 3),
    )
    with open_history(history_url) as store:
        assert [r.run_id for r in list_runs(store).runs] == ["run-other", "run-3", "run-2", "run-1"]
        assert [r.run_id for r in list_runs(store, skill="hist").runs] == [
            "run-3",
            "run-2",
            "run-1",
        ]
        assert [r.run_id for r in list_runs(store, limit=2).runs] == ["run-other", "run-3"]
        assert list_runs(store, skill="nobody").runs == []


def test_run_references_resolve_ids_prefixes_and_last(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(
        history_url,
        variant(base_report, "abc111", 1),
        variant(base_report, "abc222", 2),
        variant(base_report, "def333", 3),
    )
    with open_history(history_url) as store:
        assert resolve_run_id(store, "last") == "def333"
        assert resolve_run_id(store, "last~0") == "def333"
        assert resolve_run_id(store, "last~1") == "abc222"
        assert resolve_run_id(store, "last~2") == "abc111"
        assert resolve_run_id(store, "abc1") == "abc111"
        assert resolve_run_id(store, "def333") == "def333"
        with pytest.raises(AmbiguousRunError, match="abc.*matches 2 runs: abc222, abc111"):
            resolve_run_id(store, "abc")
        with pytest.raises(UnknownRunError, match="last~3.*holds 3 run"):
            resolve_run_id(store, "last~3")
        with pytest.raises(UnknownRunError, match="'zzz'"):
            resolve_run_id(store, "zzz")
        stored = resolve_run(store, "last~1")
    # The stored report is the whole report, as the run wrote it.
    assert stored.run_id == "abc222"
    assert stored.report.run_id == "abc222"
    assert [case.case_id for case in stored.report.cases] == [ALPHA, BETA]
    assert stored.report.cases[0].trials[0].stdout == base_report["cases"][0]["trials"][0]["stdout"]


def test_run_report_opens_the_history_and_returns_the_stored_report(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(history_url, variant(base_report, "old", 1), variant(base_report, "new", 2))
    assert run_report("last", history_url).report.run_id == "new"
    previous = run_report("last~1", history_url)
    assert previous.run_id == "old" and previous.report.skill == "hist"
    with pytest.raises(UnknownRunError):
        run_report("last~2", history_url)
    # Without a URL: the environment's history, then the default one.
    assert run_report("new", None, {"AGENTIC_EVALS_HISTORY": history_url}).run_id == "new"


def test_a_prefix_equal_to_a_whole_id_is_that_run(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(history_url, variant(base_report, "abc", 1), variant(base_report, "abcd", 2))
    with open_history(history_url) as store:
        assert resolve_run_id(store, "abc") == "abc"
        assert resolve_run_id(store, "abcd") == "abcd"


def test_last_in_an_empty_history_is_unknown(history_url: str) -> None:
    with open_history(history_url) as store, pytest.raises(UnknownRunError, match="0 run"):
        resolve_run_id(store, "last")


def test_case_trend_has_wilson_intervals_and_names_changed_hashes(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(
        history_url,
        variant(base_report, "r1", 1, hashes={ALPHA: SAME}),
        variant(base_report, "r2", 2, outcomes={ALPHA: "FAIL"}, hashes={ALPHA: SAME}),
        variant(base_report, "r3", 3, hashes={ALPHA: {**SAME, "oracle_sha256": "c" * 64}}),
        variant(
            base_report,
            "r4",
            4,
            hashes={ALPHA: {**SAME, "oracle_sha256": "c" * 64}},
            skill_files={ALPHA: {"run.sh": "sha256:" + "d" * 64}},
        ),
    )
    with open_history(history_url) as store:
        result = trend(store, ALPHA)
        assert trend(store, ALPHA, limit=2).points == result.points[2:]
    assert result.kind == "case"
    assert [p.run_id for p in result.points] == ["r1", "r2", "r3", "r4"]
    assert [p.outcome for p in result.points] == ["PASS", "FAIL", "PASS", "PASS"]
    assert [p.hashes_changed for p in result.points] == [[], [], ["oracle"], ["skill_files"]]
    expected = wilson_interval(2, 2)
    assert (result.points[0].rate, result.points[0].wilson_low, result.points[0].wilson_high) == (
        expected.rate,
        expected.wilson_low,
        expected.wilson_high,
    )
    assert result.points[1].passed == 0 and result.points[1].total == 2
    assert result.points[1].wilson_high == wilson_interval(0, 2).wilson_high


def test_claim_trend_pools_the_supporting_cases(
    history_url: str, base_report: dict[str, Any]
) -> None:
    failing = variant(base_report, "r2", 2, outcomes={BETA: "FAIL"})
    failing["capability_readiness"]["claims"][0]["verdict"] = "FAILED"
    fewer = variant(base_report, "r3", 3, hashes={ALPHA: SAME})
    fewer["capability_readiness"]["claims"][0]["supporting_cases"] = ["alpha"]
    record_all(history_url, variant(base_report, "r1", 1), failing, fewer)
    with open_history(history_url) as store:
        result = trend(store, CLAIM)
    assert result.kind == "claim"
    assert [(p.outcome, p.passed, p.total) for p in result.points] == [
        ("PROVEN", 4, 4),
        ("FAILED", 2, 4),
        ("PROVEN", 2, 2),
    ]
    assert result.points[1].wilson_low == wilson_interval(2, 4).wilson_low
    assert result.points[2].hashes_changed == ["cases", f"{ALPHA}: test_source", f"{ALPHA}: oracle"]


def test_trend_of_an_unknown_id_is_refused(history_url: str, base_report: dict[str, Any]) -> None:
    record_all(history_url, variant(base_report, "r1", 1))
    with open_history(history_url) as store, pytest.raises(UnknownTargetError, match="'hist::x'"):
        trend(store, "hist::x")


def test_a_flip_with_equal_hashes_is_flaky_and_one_with_changed_hashes_is_not(
    history_url: str, base_report: dict[str, Any]
) -> None:
    changed = {**SAME, "test_source_sha256": "e" * 64}
    record_all(
        history_url,
        # alpha flips PASS -> FAIL -> PASS with every hash the same: flaky, two flips.
        # beta fails once, but only after its test changed, then keeps failing: not flaky.
        variant(base_report, "r1", 1, hashes={ALPHA: SAME, BETA: SAME}),
        variant(base_report, "r2", 2, outcomes={ALPHA: "FAIL", BETA: "FAIL"},
                hashes={ALPHA: SAME, BETA: changed}),
        variant(base_report, "r3", 3, outcomes={BETA: "FAIL"}, hashes={ALPHA: SAME, BETA: changed}),
    )  # fmt: skip
    with open_history(history_url) as store:
        found = flaky_cases(store).flaky
        assert flaky_cases(store, window=2).flaky[0].flips == 1
    assert [case.case_id for case in found] == [ALPHA]
    alpha = found[0]
    assert (alpha.flips, alpha.runs, alpha.passes, alpha.failures) == (2, 3, 2, 1)
    assert alpha.flipped_in == ["r2", "r3"]
    assert alpha.last_outcome == "PASS" and alpha.skill == "hist"
    assert alpha.test_source_sha256 == "a" * 64


def test_skill_file_hashes_count_and_an_absent_map_is_empty(
    history_url: str, base_report: dict[str, Any]
) -> None:
    script = {"scripts/run.sh": "sha256:" + "1" * 64}
    record_all(
        history_url,
        # alpha: no map, then an empty map, with a flip: the same (empty) files, so flaky.
        # beta: its skill file changed between the PASS and the FAIL: not flaky.
        variant(base_report, "r1", 1, skill_files={BETA: script}),
        variant(
            base_report,
            "r2",
            2,
            outcomes={ALPHA: "FAIL", BETA: "FAIL"},
            skill_files={ALPHA: {}, BETA: {"scripts/run.sh": "sha256:" + "2" * 64}},
        ),
    )
    with open_history(history_url) as store:
        assert [case.case_id for case in flaky_cases(store).flaky] == [ALPHA]
        assert show_run(store, "r1").cases[1].skill_files == script
        assert show_run(store, "r1").cases[0].skill_files == {}


def test_blocked_and_not_tested_runs_decide_nothing(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(
        history_url,
        variant(base_report, "r1", 1),
        variant(base_report, "r2", 2, outcomes={ALPHA: "BLOCKED", BETA: "NOT_TESTED"}),
        variant(base_report, "r3", 3),
    )
    with open_history(history_url) as store:
        assert flaky_cases(store).flaky == []


def test_prune_keeps_the_newest_runs_and_their_cases(
    history_url: str, base_report: dict[str, Any]
) -> None:
    record_all(history_url, *(variant(base_report, f"r{n}", n) for n in range(1, 6)))
    with open_history(history_url) as store:
        receipt = prune(store, keep=2)
        assert receipt.removed == ["r3", "r2", "r1"] and receipt.kept == 2
        assert [r.run_id for r in list_runs(store).runs] == ["r5", "r4"]
        assert [p.run_id for p in trend(store, ALPHA).points] == ["r4", "r5"]
        leftovers = store.query("SELECT COUNT(*) AS n FROM cases WHERE run_id = 'r1'")
        assert leftovers[0]["n"] == 0
        assert store.query("SELECT COUNT(*) AS n FROM reports")[0]["n"] == 2
        assert prune(store, keep=0).removed == ["r5", "r4"]
        assert list_runs(store).runs == []
