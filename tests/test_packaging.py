"""Install, platform and documents: ranges and pins, Linux, URLs, schemas, written files."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from builders import REPO, case, fixture, write_file
from click.testing import CliRunner

from agentic_evals.cli import cli, main
from agentic_evals.cli.schemas import SCHEMAS, packaged_schema
from agentic_evals.documents.findings import Finding
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.regressions.load import load_registry
from agentic_evals.reports.json_out import write_text_atomic

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
EXAMPLE = REPO / "examples"
SECTION_CITATION = re.compile(r"SPEC\s*(?:sections?\s*)?\d")


def canonical(name: str) -> str:
    """A distribution name as pip compares it (``PyYAML`` is ``pyyaml``, ``a_b`` is ``a-b``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_dependencies_are_compatible_ranges_pinned_for_ci() -> None:
    pins = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonical(re.sub(r"\[.*\]", "", name))] = version
    for requirement in PYPROJECT["project"]["dependencies"]:
        name, floor, ceiling = re.fullmatch(r"([\w-]+)>=([\d.]+),<(\d+)", requirement).groups()  # type: ignore[union-attr]
        assert canonical(name) in pins, f"{name} has no exact pin for CI"
        pinned = tuple(int(part) for part in pins[canonical(name)].split("."))
        assert tuple(int(p) for p in floor.split(".")) <= pinned < (int(ceiling),), name
    lowest = (REPO / "constraints-lowest.txt").read_text()
    assert "click==8.1.0" in lowest and "pydantic==2.7.0" in lowest
    assert "scripts/check_lowest.sh" in (REPO / ".ci" / "run").read_text()


def test_linux_and_project_urls_are_stated() -> None:
    project = PYPROJECT["project"]
    assert "Operating System :: POSIX :: Linux" in project["classifiers"]
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(project["urls"])


def test_other_systems_get_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    with pytest.raises(SystemExit) as stopped:
        main(["validate", "x.json"])
    assert stopped.value.code == 2
    assert "runs on Linux only" in capsys.readouterr().err


def test_no_help_text_or_schema_description_cites_section_numbers() -> None:
    for path in sorted((REPO / "schemas").glob("*.json")):
        assert not SECTION_CITATION.search(path.read_text()), path.name
    names: list[str] = cli.list_commands(None)  # type: ignore[arg-type]
    commands: list[list[str]] = [[], *([name] for name in names)]
    for group in ("coverage", "regressions", "history"):
        sub = cli.get_command(None, group)  # type: ignore[arg-type]
        commands += [[group, name] for name in sub.list_commands(None)]  # type: ignore[union-attr]
    for words in commands:
        shown = CliRunner().invoke(cli, [*words, "--help"], terminal_width=200)
        assert shown.exit_code == 0, words
        assert not SECTION_CITATION.search(shown.output), (words, shown.output)


def test_every_schema_id_resolves_from_the_package() -> None:
    for path in sorted((REPO / "schemas").glob("*.json")):
        schema_id = json.loads(path.read_text())["$id"]
        assert packaged_schema(schema_id) == path.read_text()
    assert len(list((REPO / "schemas").glob("*.json"))) == len(SCHEMAS)
    assert "schemas/*.json" in PYPROJECT["tool"]["setuptools"]["package-data"]["agentic_evals"]
    with pytest.raises(KeyError):
        packaged_schema("https://agentic-evals.dev/schemas/../pyproject.toml")


def unknown(findings: list[Finding]) -> list[str]:
    return [f.pointer for f in findings if f.code == "AE-SCHEMA-UNKNOWN"]


def test_schema_key_is_accepted_at_the_top_of_every_document(tmp_path: Path) -> None:
    schema = "https://agentic-evals.dev/schemas/fixture.schema.json"
    document = {"$schema": schema, **fixture([case(command=["bash", "-c", "exit 0"])])}
    loaded = load_fixture(write_file(tmp_path / "f.json", document), strict=True, gates=False)
    assert loaded.ok and unknown(loaded.findings) == []
    registry = {"$schema": "regressions.schema.json", "schema": "agentic_evals.regressions.v1"}
    registry["regressions"] = []  # type: ignore[assignment]
    assert load_registry(write_file(tmp_path / "r.json", registry)).ok
    requirements = {"$schema": "x", "schema": "agentic_evals.requirements.v1", "requirements": []}
    from agentic_evals.documents.pipeline import load_document
    from agentic_evals.skills.journeys.load import REQUIREMENTS

    loaded_requirements = load_document(write_file(tmp_path / "q.json", requirements), REQUIREMENTS)
    assert unknown(loaded_requirements.findings) == []
    # Deeper than the top, it is a key like any other.
    nested = fixture([{**case(), "$schema": "x"}])
    assert unknown(load_fixture(write_file(tmp_path / "n.json", nested), gates=False).findings) == [
        "/cases/0/$schema"
    ]


def test_written_files_follow_the_umask_and_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        write_text_atomic(fresh, "{}\n")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        kept = tmp_path / "kept.json"
        kept.write_text("old")
        kept.chmod(0o640)
        write_text_atomic(kept, "new")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
        os.umask(0o077)
        private = tmp_path / "private.json"
        write_text_atomic(private, "{}")
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
    finally:
        os.umask(previous)


def test_the_example_fixture_outside_its_skill_runs_ready(tmp_path: Path) -> None:
    fixture_path = EXAMPLE / "evals" / "csv-to-json" / "agentic_eval.yaml"
    text = fixture_path.read_text()
    assert "skill_root:" in text and "defaults:" in text and "parametrize:" in text
    output = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["run", str(fixture_path), "--output", str(output)])
    assert result.exit_code == 0, result.output
    report = json.loads(output.read_text())
    assert report["readiness"] == "READY"
    assert report["capability_readiness"]["aggregate_readiness"] == "READY"
    names = [c["name"] for c in report["cases"]]
    assert names == ["converts[people]", "converts[quoted]", "rejects-a-ragged-row"]
    assert all(c["effective_evidence_class"] == "deterministic" for c in report["cases"])


def test_a_zip_of_the_skill_folder_holds_no_eval_file(tmp_path: Path) -> None:
    skill = EXAMPLE / "skills" / "csv-to-json"
    archive = tmp_path / "csv-to-json.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        for path in sorted(skill.rglob("*")):
            packed.write(path, path.relative_to(skill.parent).as_posix())
    names = zipfile.ZipFile(archive).namelist()
    assert "csv-to-json/SKILL.md" in names and "csv-to-json/scripts/csv2json.py" in names
    evals = [n for n in names if "agentic_eval" in n or "/fixtures/" in n or n.endswith(".csv")]
    assert evals == [] and not any("expected" in n or "inputs" in n for n in names)


README = REPO / "README.md"


def test_the_readme_is_short_and_links_only_existing_pages() -> None:
    text = README.read_text()
    assert len(text.encode()) <= 12 * 1024
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (REPO / target).exists(), target
    assert "pipx install agentic-evals" in text and "uv tool install agentic-evals" in text
    assert "Linux" in text


def readme_commands() -> list[tuple[str, list[str]]]:
    """Each ``$ agentic-evals ...`` command of the README and the lines it prints."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), flags=re.S):
        lines = block.splitlines()
        found.append((lines[0].removeprefix("$ "), lines[1:]))
    return found


@pytest.mark.parametrize(("command", "printed"), readme_commands())
def test_the_readme_commands_run_as_printed(
    command: str, printed: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(EXAMPLE, tmp_path / "examples")
    words = shlex.split(command)
    assert words[0] == "agentic-evals"
    result = CliRunner().invoke(cli, words[1:], terminal_width=100)
    # What the README shows is the command's summary: stdout, or stderr when it prints there.
    stream = result.stdout or result.stderr
    shown = [line.rstrip() for line in stream.splitlines()]
    # The containment and tracing lines name this machine's mechanisms (cgroup v1 or v2,
    # fanotify or strace, ...).
    local = ("containment:", "tracing:")
    assert [line for line in shown if not line.startswith(local)] == [
        line for line in printed if not line.startswith(local)
    ], result.output
    assert result.exit_code == 0
