"""JUnit XML (validated by the Jenkins schema) and Markdown, from real runs of the samples."""

from __future__ import annotations

from pathlib import Path

import pytest
from junitparser import JUnitXml, TestSuite
from lxml import etree
from outputs_helpers import SHARED

from agentic_evals.reports.junit import render_junit
from agentic_evals.reports.markdown import render_markdown
from agentic_evals.reports.model import Report

XSD = SHARED / "reference" / "junit" / "junit-10.xsd"


@pytest.fixture(scope="module")
def junit_schema() -> etree.XMLSchema:
    if not XSD.is_file():
        pytest.skip(f"the JUnit schema is not at {XSD}")
    return etree.XMLSchema(etree.parse(str(XSD)))


def parse(text: str, schema: etree.XMLSchema) -> etree._Element:
    document = etree.fromstring(text.encode("utf-8"))
    schema.assertValid(document)
    return document


def test_every_sample_report_validates_against_the_jenkins_schema(
    mixed_report: Report, ready_report: Report, junit_schema: etree.XMLSchema
) -> None:
    for report in (mixed_report, ready_report):
        parse(render_junit(report), junit_schema)


def test_junit_maps_outcomes_claims_and_flaky_detail(
    mixed_report: Report, junit_schema: etree.XMLSchema
) -> None:
    root = parse(render_junit(mixed_report), junit_schema)
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "outputs-sample"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert list(cases) == [
        "writes-receipt", "rejects-a-missing-mode", "fails-loudly", "meets-a-rate-limit",
        "needs-a-service", "claims-a-receipt-it-never-wrote", "claim:out.receipt",
        "claim:out.quiet",
    ]  # fmt: skip
    assert {c.get("classname") for c in cases.values()} == {"outputs-sample"}
    failure = cases["fails-loudly"].find("failure")
    assert failure is not None and failure.get("message") == "EXIT_CODE: exit code 1, expected 0"
    assert "last 20 of 31 lines (11 cut)" in (failure.text or "")
    assert "token=[REDACTED]" in (failure.text or "") and "hunter2" not in (failure.text or "")
    skipped = cases["needs-a-service"].find("skipped")
    assert skipped is not None and "BLOCKED_MARKER" in (skipped.get("message") or "")
    assert cases["claims-a-receipt-it-never-wrote"].find("failure") is not None
    flaky = cases["meets-a-rate-limit"]
    assert flaky.find("failure") is None and flaky.find("skipped") is None
    out = flaky.findtext("system-out") or ""
    assert "flaky: true" in out and "#2 INFRA_BLOCKED exit 75" in out
    assert cases["claim:out.receipt"].find("failure") is None
    assert cases["claim:out.quiet"].find("failure") is not None  # FAILED, whatever criticality
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("8", "3", "1")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["readiness"] == "USABLE_WITH_GAPS"


def test_a_common_junit_reader_sees_the_same_counts_and_results(
    mixed_report: Report, tmp_path: Path
) -> None:
    # junitparser is the reader behind the widely used GitHub action that publishes test
    # results; it reads the file, as CI does, and what it reads is what a CI page shows.
    written = tmp_path / "junit.xml"
    written.write_text(render_junit(mixed_report), encoding="utf-8")
    xml = JUnitXml.fromfile(str(written))
    suites = [xml] if isinstance(xml, TestSuite) else list(xml)
    assert [suite.name for suite in suites] == ["outputs-sample"]
    suite = suites[0]
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (8, 3, 0, 1)
    read = {case.name: case for case in suite}
    assert read["writes-receipt"].is_passed and read["claim:out.receipt"].is_passed
    assert read["fails-loudly"].is_failure and not read["fails-loudly"].is_passed
    assert read["needs-a-service"].is_skipped
    assert read["claim:out.quiet"].is_failure
    assert read["meets-a-rate-limit"].is_passed
    assert "flaky: true" in (read["meets-a-rate-limit"].system_out or "")
    assert all(case.classname == "outputs-sample" for case in suite)
    assert all(case.time >= 0 for case in suite)
    (failure,) = read["fails-loudly"].result
    assert failure.message == "EXIT_CODE: exit code 1, expected 0"
    assert "last 20 of 31 lines (11 cut)" in (failure.text or "")


def test_junit_names_stay_unique_and_control_characters_are_replaced(
    mixed_report: Report, junit_schema: etree.XMLSchema
) -> None:
    first = mixed_report.cases[0].model_copy(update={"name": "claim:out.receipt"})
    noisy = mixed_report.cases[2]
    trial = noisy.trials[0].model_copy(update={"stderr": "bell \x07 and nul \x00\n"})
    noisy = noisy.model_copy(update={"trials": [trial, *noisy.trials[1:]]})
    cases = [first, mixed_report.cases[1], noisy, *mixed_report.cases[3:]]
    report = mixed_report.model_copy(update={"cases": cases})
    root = parse(render_junit(report), junit_schema)
    names = [c.get("name") for c in root.iter("testcase")]
    assert len(names) == len(set(names))
    assert "claim:out.receipt [2]" in names


def test_markdown_has_the_summary_content(mixed_report: Report, ready_report: Report) -> None:
    text = render_markdown(mixed_report)
    assert "### agentic-evals: outputs-sample is `USABLE_WITH_GAPS`" in text
    assert "| ❌ FAIL | fails-loudly | 0/2 |" in text
    assert "| ✅ PASS | meets-a-rate-limit | 1/2 |" in text and "flaky" in text
    assert "<details><summary>BLOCKED needs-a-service: BLOCKED_MARKER</summary>" in text
    assert "last 20 of 31 lines (11 cut)" in text and "hunter2" not in text
    assert "| out.quiet | important | FAILED |" in text
    assert "hallucinated success: 2 trial(s)" in text
    assert "is `READY`" in render_markdown(ready_report)
