"""Merged shard reports recompute capability readiness as one full run would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claims_helpers import claim, cli_run, det_case, document, live_case, write
from click.testing import CliRunner

from agentic_evals.cli import cli

VOLATILE = frozenset({"run_id", "generated_at", "duration_ms", "shard"})


def stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def test_shards_that_each_prove_part_of_a_claim_merge_into_a_proven_claim(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    cases = [
        det_case("det"),
        live_case("live"),
        det_case("rep", claims=("d",), type="adversarial", representation="quoted"),
        det_case("other", claims=("d",), type="adversarial", representation="unquoted"),
    ]
    value = claim(
        "d", ("deterministic",), claim_semantics="value_bearing", domain_profile="csv-cell-v1"
    )
    seam = {
        "seam_id": "cells",
        "seam_type": "value-representation",
        "required_evidence": ["deterministic"],
    }
    fixture = write(
        tmp_path,
        document([claim(required=("deterministic", "live_e2e")), value], cases, seams=[seam]),
    )
    _, full = cli_run(fixture)
    shards = []
    for k in (1, 2):
        result, shard = cli_run(fixture, "--shard", f"{k}/2", "--report-only")
        assert result.exit_code == 0
        assert shard["readiness"] != "READY"  # a shard alone proves neither claim
        (fixture.parent / f"shard-{k}.json").write_text(json.dumps(shard))
        shards.append(str(fixture.parent / f"shard-{k}.json"))
    merged_path = tmp_path / "merged.json"
    result = CliRunner().invoke(cli, ["merge", *shards, "-o", str(merged_path)])
    assert result.exit_code == 0, result.output
    merged = json.loads(merged_path.read_text())
    assert_valid_report(merged)
    assert [c["verdict"] for c in merged["capability_readiness"]["claims"]] == ["PROVEN", "PROVEN"]
    assert merged["readiness"] == "READY"
    assert stable(merged["capability_readiness"]) == stable(full["capability_readiness"])
    assert stable(merged["qualification"]) == stable(full["qualification"])


def test_the_merged_gate_honours_the_claims_when_every_case_passes(
    tmp_path: Path, assert_valid_report: Callable[[Any], None]
) -> None:
    # Both shards pass every case, but no case can fill the claim's live slot.
    fixture = write(
        tmp_path, document([claim(required=("live_e2e",))], [det_case("a"), det_case("b")])
    )
    shards = []
    for k in (1, 2):
        result, shard = cli_run(fixture, "--shard", f"{k}/2", "--report-only")
        assert result.exit_code == 0 and shard["case_readiness"] == "READY"
        path = tmp_path / f"shard-{k}.json"
        path.write_text(json.dumps(shard))
        shards.append(str(path))
    merged_path = tmp_path / "merged.json"
    result = CliRunner().invoke(cli, ["merge", *shards, "-o", str(merged_path)])
    merged = json.loads(merged_path.read_text())
    assert_valid_report(merged)
    assert merged["case_readiness"] == "READY"
    assert merged["capability_readiness"]["aggregate_readiness"] == "USABLE_WITH_GAPS"
    assert merged["readiness"] == "USABLE_WITH_GAPS"
    assert result.exit_code == 1
