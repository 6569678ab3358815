"""What ``run`` records of its own report is the report its file holds.

``run`` serialises its report once for the history (compiled serialisation);
the text stored must parse to the written file's value, and its hash must be
the one a later import of that file computes, so that importing the file is
"already recorded", never a conflict.
"""

from __future__ import annotations

import json
from typing import Any

from history_helpers import record_all

from agentic_evals.history.access import run_report
from agentic_evals.history.recorder import record_quietly
from agentic_evals.reports.json_out import dump_model, plain_document
from agentic_evals.reports.model import Report


def _with_small_floats(document: dict[str, Any]) -> Report:
    """The report, with a pass rate written in exponent form by one serialiser, not the other."""
    changed = json.loads(json.dumps(document))
    changed["metrics"]["trial_pass_rate"]["wilson_low"] = 4.2e-07
    return Report.model_validate(changed)


def test_the_recorded_report_is_the_written_one_and_its_import_is_already_recorded(
    history_url: str, base_report: dict[str, Any]
) -> None:
    report = _with_small_floats(base_report)
    assert record_quietly(report, history_url) is None
    written = json.loads(dump_model(report))
    assert [o.status for o in record_all(history_url, written)] == ["already_recorded"]
    stored = run_report(report.run_id, history_url)
    assert plain_document(stored.report) == plain_document(report) == written
