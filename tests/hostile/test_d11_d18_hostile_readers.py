"""Defects 7, 11 and 18, and the surrogates of defect 4: every reader, every hostile scalar.

Hypothesis builds documents holding one hostile value (an integer of more
than 4,300 digits, a lone surrogate in a string or a key, a NUL, nesting far
deeper than the bound) at a random place, in JSON and YAML; each reader gets
them: fixtures, merge inputs, ``report``/``compare`` inputs, registries,
plan-journeys inputs, history and EEE imports, the configuration file, ``--shard`` and the CI shard
variables. Every one ends in a verdict or a clean exit 2, never exit 3.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hostile_helpers import Inputs, cli, small_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentic_evals.limits import MAX_DEPTH, MAX_INT_DIGITS

EXAMPLES = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)

FEW_EXAMPLES = settings(EXAMPLES, max_examples=10)

huge_integers = st.integers(MAX_INT_DIGITS + 1, MAX_INT_DIGITS + 3000).map(lambda n: "7" * n)
lone_surrogates = st.integers(0xD800, 0xDFFF).map(lambda c: f'"\\u{c:04x}"')
nuls = st.just('"a\\u0000b"')
deep = st.integers(MAX_DEPTH + 1, 3 * MAX_DEPTH).map(lambda n: "[" * n + "]" * n)
very_deep = st.just("[" * 100_000 + "]" * 100_000)
hostile_values = st.one_of(huge_integers, lone_surrogates, nuls, deep, very_deep)


@st.composite
def hostile_json(draw: st.DrawFn) -> str:
    """A JSON object with a hostile value (or key) somewhere inside ordinary members."""
    value = draw(hostile_values)
    for _ in range(draw(st.integers(0, 3))):
        value = draw(st.sampled_from(['{"k": %s}', "[1, %s]", '{"cases": [%s]}'])) % value
    if draw(st.booleans()) and value.startswith('"'):
        return f'{{"version": 2, {value}: 1}}'  # as a key
    return f'{{"version": 2, "skill": "s", "x": {value}}}'


def write_bytes(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


@EXAMPLES
@given(text=hostile_json(), suffix=st.sampled_from([".json", ".yaml"]))
def test_d11_d18_validate_rejects_hostile_fixtures_with_a_pointer(
    text: str, suffix: str, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    fixture = write_bytes(tmp_path_factory.mktemp("f") / f"agentic_eval{suffix}", text)
    ended = cli(capsys, "validate", fixture)
    assert ended.code == 2
    assert " AE-" in ended.err


@EXAMPLES
@given(text=hostile_json())
def test_d11_d18_report_readers_refuse_hostile_reports_naming_file_and_pointer(
    text: str, inputs: Inputs, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    hostile = write_bytes(tmp_path_factory.mktemp("r") / "hostile.json", text)
    out = hostile.parent / "out.json"
    for args in (
        ("merge", inputs.shard1, hostile, "-o", out),
        ("merge", hostile, inputs.shard2, "-o", out),
        ("report", hostile, "--format", "markdown"),
        ("compare", inputs.base, hostile),
        ("run", inputs.fixture, "--resume", hostile, "-o", out),
        ("history", "import", hostile, "--history", f"sqlite:///{hostile.parent}/h.db"),
        ("import", "eee", hostile, "--history", f"sqlite:///{hostile.parent}/h.db"),
    ):
        ended = cli(capsys, *args)
        assert ended.code == 2, (args, ended)
        assert str(hostile) in ended.err + ended.out
        assert not out.exists()


@FEW_EXAMPLES
@given(text=hostile_json())
def test_d11_d18_registries_and_journey_inputs_are_rejected_cleanly(
    text: str, inputs: Inputs, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    skill = tmp_path_factory.mktemp("skill")
    write_bytes(skill / "SKILL.md", "---\nname: s\ndescription: d\n---\n")
    registry = write_bytes(skill / "fixtures" / "regressions.json", text)
    for command in ("show", "verify"):
        ended = cli(capsys, "regressions", command, skill)
        assert ended.code == 2, (command, ended)
    assert cli(capsys, "regressions", "audit", skill.parent).code in (0, 1, 2)
    out = skill / "plan.json"
    ended = cli(
        capsys, "plan-journeys", "--fixture", inputs.fixture, "--requirements", registry,
        "--interaction-inventory", registry, "--state-graph", registry, "-o", out,
    )  # fmt: skip
    assert ended.code == 2 and not out.exists()


@EXAMPLES
@given(digits=st.integers(65, 6000), where=st.sampled_from(["index", "total"]))
def test_d11_shard_option_and_ci_variables_refuse_huge_numbers(
    digits: int, where: str, inputs: Inputs, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    huge = "9" * digits
    shard = f"{huge}/2" if where == "index" else f"1/{huge}"
    ended = cli(capsys, "run", inputs.fixture, "--shard", shard)
    assert ended.code == 2 and "--shard" in ended.err
    for index, total in (("CI_NODE_INDEX", "CI_NODE_TOTAL"),):
        with monkeypatch.context() as env:
            env.setenv(index, huge if where == "index" else "1")
            env.setenv(total, "2" if where == "index" else huge)
            ended = cli(capsys, "run", inputs.fixture)
        assert ended.code == 2 and (index in ended.err or total in ended.err)
    with monkeypatch.context() as env:
        env.setenv("AGENTIC_EVALS_SHARD_TOTAL", huge)
        env.setenv("JOB_COMPLETION_INDEX", "0")
        ended = cli(capsys, "run", inputs.fixture)
    assert ended.code == 2 and "AGENTIC_EVALS_SHARD_TOTAL" in ended.err


def test_d11_an_integer_over_the_digit_bound_is_named_by_its_pointer(
    tmp_path: Path, inputs: Inputs, capsys: pytest.CaptureFixture[str]
) -> None:
    big = "7" * (MAX_INT_DIGITS + 1)
    fixture = write_bytes(tmp_path / "f.json", f'{{"version": 2, "trials": {big}}}')
    ended = cli(capsys, "validate", fixture)
    assert f"/trials AE-SCHEMA-VALUE error: an integer longer than {MAX_INT_DIGITS}" in ended.err
    report = json.loads(inputs.shard1.read_text("utf-8"))
    report["cases"][0]["trials"][0]["duration_seconds"] = 0
    text = json.dumps(report).replace('"duration_seconds": 0', f'"duration_seconds": {big}', 1)
    hostile = write_bytes(tmp_path / "s1.json", text)
    ended = cli(capsys, "merge", hostile, inputs.shard2, "-o", tmp_path / "m.json")
    assert ended.code == 2
    assert "/cases/0/trials/0/duration_seconds: an integer longer than" in ended.err
    at_bound = write_bytes(tmp_path / "ok.json", '{"version": %s}' % ("7" * MAX_INT_DIGITS))
    assert "integer longer" not in cli(capsys, "validate", at_bound).err


def test_d18_a_report_nested_100000_levels_is_refused_by_merge(
    tmp_path: Path, inputs: Inputs, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = write_bytes(tmp_path / "deep.json", '{"schema": %s}' % ("[" * 100_000 + "]" * 100_000))
    ended = cli(capsys, "merge", inputs.shard1, deep, "-o", tmp_path / "m.json")
    assert ended.code == 2 and "nesting deeper than" in ended.err


def test_d11_the_configuration_file_refuses_a_huge_integer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    small_fixture(tmp_path)
    (tmp_path / "agentic-evals.toml").write_text(f"jobs = {'9' * 5000}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    ended = cli(capsys, "run", "agentic_eval.json")
    assert ended.code == 2 and "agentic-evals.toml" in ended.err


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom", "directory"])
def test_d07_fixtures_that_are_not_regular_files_are_refused_unread(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "fifo":
        path = tmp_path / "agentic_eval.json"
        os.mkfifo(path)
    elif kind == "directory":
        path = tmp_path / "x.json"
        path.mkdir()
    else:
        path = Path(kind)
    ended = cli(capsys, "validate", path)
    assert ended.code == 2
    if kind != "directory":
        assert "not a regular file" in ended.err
        assert cli(capsys, "run", path).code == 2


def test_d07_a_fifo_found_while_scanning_a_folder_is_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small_fixture(tmp_path / "tree" / "good")
    os.mkfifo(tmp_path / "tree" / "agentic_eval.json")
    ended = cli(capsys, "validate", tmp_path / "tree")
    assert ended.code == 2 and "it is a FIFO, not a regular file" in ended.err


def test_d07_a_document_over_the_size_bound_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentic_evals.documents import yaml_io

    monkeypatch.setattr(yaml_io, "MAX_DOCUMENT_BYTES", 100)
    fixture = write_bytes(tmp_path / "f.json", json.dumps({"version": 2, "pad": "x" * 200}))
    ended = cli(capsys, "validate", fixture)
    assert ended.code == 2 and "larger than 100 bytes" in ended.err
