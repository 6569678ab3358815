"""The run pipeline: select a fixture's cases, run their trials, judge the report."""
