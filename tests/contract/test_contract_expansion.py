"""Fixture expansion: defaults, parametrized cases, placeholders, and where their errors point."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import RUN_OK, case, fixture, make_skill, write_file

from agentic_evals.commands.context import case_context
from agentic_evals.contract.models import Case
from agentic_evals.contract.placeholders import path_root, resolve, substitute
from agentic_evals.evidence.gates import load_fixture
from agentic_evals.judge.provenance import oracle_sha256, sha256_bytes, source_sha256
from agentic_evals.reports.locations import case_lines

WriteFixture = Callable[..., Path]

RUN = ["bash", "../run.sh"]
HEAD = "version: 2\nskill: demo\ntrials: 2\ncases:\n"
"""The top of every YAML fixture these tests write."""


def loaded_cases(
    write_fixture: WriteFixture, document: Any, name: str = "agentic_eval.json"
) -> list[Case]:
    result = load_fixture(write_fixture(document, name), gates=False)
    assert result.ok, [f.render() for f in result.findings]
    assert result.model is not None
    return result.model.cases


def hashes(path: Path) -> list[tuple[str, str]]:
    """The (test source, oracle) hashes of every case of the fixture at ``path``, as run."""
    result = load_fixture(path, gates=False)
    assert result.ok and isinstance(result.document, dict), [f.render() for f in result.findings]
    return [(source_sha256(c), oracle_sha256(c)) for c in result.document["cases"]]


def errors_of(
    write_fixture: WriteFixture, document: Any, name: str = "agentic_eval.json"
) -> list[tuple[str, str, int | None, str]]:
    result = load_fixture(write_fixture(document, name), gates=False)
    return [(f.code, f.pointer, f.line, f.message) for f in result.errors]


def test_defaults_are_merged_and_the_case_wins(write_fixture: WriteFixture) -> None:
    document = fixture(
        [
            case("a", command=RUN, env={"B": "case"}),
            case("b", command=RUN, timeout_seconds=5, cwd="."),
        ],
        defaults={"timeout_seconds": 9, "env": {"A": "default", "B": "default"}, "cwd": ".."},
    )
    first, second = loaded_cases(write_fixture, document)
    assert first.timeout_seconds == 9 and first.cwd == ".."
    assert first.env == {"A": "default", "B": "case"}  # env merges by variable
    assert second.timeout_seconds == 5 and second.cwd == "."
    assert second.env == {"A": "default", "B": "default"}


def test_defaults_reach_markers_and_workspace(write_fixture: WriteFixture) -> None:
    document = fixture(
        [case("a", command=RUN), case("b", command=RUN, blocked_when_stdout_contains=[])],
        defaults={"blocked_when_stdout_contains": ["SKIP"], "workspace": {"input": ".."}},
    )
    first, second = loaded_cases(write_fixture, document)
    assert first.blocked_when_stdout_contains == ["SKIP"]
    assert second.blocked_when_stdout_contains == []  # an explicit empty list is the case's own
    assert first.workspace is not None and first.workspace.input == ".."


def test_parametrize_expands_the_cross_product_in_order(write_fixture: WriteFixture) -> None:
    parametrized = case(
        "greet",
        command=["bash", "../run.sh", "${WHO}", "--lang=${LANG}"],
        env={"GREETING_FOR": "${WHO}"},
        parametrize={"WHO": ["ada", "bob"], "LANG": ["en", "fr"]},
        expected={
            "exit_code": 0,
            "stdout_contains": ["${WHO}"],  # expectations are no expanded place
            "artifacts": [
                {
                    "path": "out/${WHO}.json",
                    "json_pointer": "",
                    "equals_artifact": {"path": "golden/${LANG}.json"},
                },
                {"glob": "out/${WHO}*"},
            ],
        },
    )
    cases = loaded_cases(write_fixture, fixture([parametrized, case("plain", command=RUN)]))
    names = [c.name for c in cases]
    assert names == ["greet[ada,en]", "greet[ada,fr]", "greet[bob,en]", "greet[bob,fr]", "plain"]
    third = cases[2]
    assert third.command == ["bash", "../run.sh", "bob", "--lang=en"]
    assert third.env == {"GREETING_FOR": "bob"}
    assert third.expected.stdout_contains == ["${WHO}"]
    artifact, glob = third.expected.artifacts
    assert artifact.path == "out/bob.json"
    assert (
        artifact.equals_artifact is not None and artifact.equals_artifact.path == "golden/en.json"
    )
    assert glob.glob == "out/bob*"
    assert third.parametrize is None


def test_one_variable_names_the_case_by_its_value(write_fixture: WriteFixture) -> None:
    parametrized = case("lint", command=[*RUN, "${DIR}"], parametrize={"DIR": ["src", "docs"]})
    cases = loaded_cases(write_fixture, fixture([parametrized]))
    assert [c.name for c in cases] == ["lint[src]", "lint[docs]"]


def test_every_expanded_case_has_its_own_hashes(write_fixture: WriteFixture) -> None:
    parametrized = case("lint", command=[*RUN, "${DIR}"], parametrize={"DIR": ["src", "docs"]})
    first, second = hashes(write_fixture(fixture([parametrized])))
    assert first[0] != second[0]  # the command differs
    assert first[1] == second[1]  # the oracles do not


def test_hashes_do_not_depend_on_where_the_checkout_lies(tmp_path: Path) -> None:
    document = fixture([case("a", command=["bash", "${SKILL_ROOT}/run.sh"])])
    found = []
    for where in ("one", "two/deeper"):
        skill = make_skill(tmp_path / where / "skill", files=RUN_OK)
        found.append(hashes(write_file(skill / "fixtures" / "agentic_eval.json", document)))
    assert found[0] == found[1]


def test_a_default_change_changes_the_hashes(write_fixture: WriteFixture) -> None:
    before = hashes(write_fixture(fixture([case("a", command=RUN)], defaults={"env": {}})))
    after = hashes(write_fixture(fixture([case("a", command=RUN)], defaults={"env": {"X": "1"}})))
    assert before[0][0] != after[0][0]


def test_an_unknown_placeholder_is_an_error_at_its_source_line(write_fixture: WriteFixture) -> None:
    text = (
        HEAD
        + """\
  - name: a
    type: positive
    parametrize: {WHO: [ada, bob]}
    command: [bash, ../run.sh, "${WHO}", "${NOPE}"]
    expected: {exit_code: 0}
"""
    )
    errors = errors_of(write_fixture, text, "agentic_eval.yaml")
    # Both variants share the error: it is reported once, at the written word.
    assert len(errors) == 1
    code, pointer, line, message = errors[0]
    assert (code, pointer, line) == ("AE-SCHEMA-VALUE", "/cases/0/command/3", 8)
    assert "unknown placeholder ${NOPE}" in message and "$${NOPE}" in message


def test_an_invalid_parametrize_is_reported_as_written(write_fixture: WriteFixture) -> None:
    text = (
        HEAD
        + """\
  - name: b
    type: positive
    command: [bash, ../run.sh]
    expected: {exit_code: 0}
  - name: a
    type: positive
    parametrize: {V: ["", x]}
    command: [bash, ../run.sh, "${V}"]
    expected: {exit_code: 0}
"""
    )
    errors = errors_of(write_fixture, text, "agentic_eval.yaml")
    # The values must not be empty: that error is the schema's, at the parametrize.
    assert [(c, p, line) for c, p, line, _ in errors] == [
        ("AE-SCHEMA-VALUE", "/cases/1/parametrize/V/0", 11)
    ]


def test_an_expanded_name_colliding_with_another_case_points_at_the_source(
    write_fixture: WriteFixture,
) -> None:
    text = (
        HEAD
        + """\
  - name: "a[x]"
    type: positive
    command: [bash, ../run.sh]
    expected: {exit_code: 0}
  - name: a
    type: positive
    parametrize: {V: [x, y]}
    command: [bash, ../run.sh, "${V}"]
    expected: {exit_code: 0}
"""
    )
    errors = errors_of(write_fixture, text, "agentic_eval.yaml")
    assert len(errors) == 1
    code, pointer, line, message = errors[0]
    assert (code, pointer, line) == ("AE-SCHEMA-DUPLICATE", "/cases/1/name", 9)
    assert "a[x]" in message


def test_a_bad_default_points_at_the_defaults(write_fixture: WriteFixture) -> None:
    text = """\
version: 2
skill: demo
trials: 2
defaults:
  timeout_seconds: soon
cases:
  - {name: a, type: positive, command: [bash, ../run.sh], expected: {exit_code: 0}}
  - {name: b, type: negative, command: [bash, ../run.sh], expected: {exit_code: 1}}
"""
    errors = errors_of(write_fixture, text, "agentic_eval.yaml")
    assert {(c, p, line) for c, p, line, _ in errors} == {
        ("AE-SCHEMA-TYPE", "/defaults/timeout_seconds", 5)
    }


def test_an_unknown_default_key_is_a_warning(write_fixture: WriteFixture) -> None:
    document = fixture([case("a", command=RUN)], defaults={"timeout_secs": 3})
    result = load_fixture(write_fixture(document), gates=False)
    assert result.ok
    assert [(w.code, w.pointer) for w in result.warnings] == [
        ("AE-SCHEMA-UNKNOWN", "/defaults/timeout_secs")
    ]
    assert result.model is not None and result.model.cases[0].timeout_seconds is None


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("${HOME}", "unknown placeholder ${HOME}"),
        ("--out=${WORKSPACE}/x", "this case has no workspace"),
    ],
)
def test_placeholders_a_command_cannot_use(
    write_fixture: WriteFixture, word: str, reason: str
) -> None:
    errors = errors_of(write_fixture, fixture([case("a", command=[*RUN, word])]))
    assert [(c, p) for c, p, _, _ in errors] == [("AE-SCHEMA-VALUE", "/cases/0/command/2")]
    assert reason in errors[0][3]


@pytest.mark.parametrize(
    ("where", "value", "reason"),
    [
        ("cwd", "sub/${SKILL_ROOT}", "must start the path"),
        ("artifact", "out/${FIXTURE_DIR}/x.json", "must start the path"),
        ("input", "${WORKSPACE}", "cannot name the workspace's own input"),
        ("cwd", "${NOPE}/x", "unknown placeholder"),
    ],
)
def test_placeholders_a_path_cannot_use(
    write_fixture: WriteFixture, where: str, value: str, reason: str
) -> None:
    one = case("a", command=RUN)
    pointer = {"cwd": "/cases/0/cwd", "artifact": "/cases/0/expected/artifacts/0/path"}.get(
        where, "/cases/0/workspace/input"
    )
    if where == "cwd":
        one["cwd"] = value
    elif where == "artifact":
        one["expected"]["artifacts"] = [{"path": value}]
    else:
        one["workspace"] = {"input": value}
    errors = errors_of(write_fixture, fixture([one]))
    assert [(c, p) for c, p, _, _ in errors] == [("AE-SCHEMA-VALUE", pointer)]
    assert reason in errors[0][3]


def test_shell_expansions_and_escapes_are_left_to_the_shell(write_fixture: WriteFixture) -> None:
    script = 'out=${TMPDIR:-/tmp}; n=${#out}; echo "${PIPESTATUS[0]}" $${HOME} $n'
    cases = loaded_cases(write_fixture, fixture([case("a", command=["bash", "-c", script])]))
    assert cases[0].command[2] == script  # kept as written: hashes see the escape
    assert resolve(script, {}) == script.replace("$${HOME}", "${HOME}")


def test_workspace_placeholder_resolves_to_the_trial_copy(fixtures_dir: Path) -> None:
    document = fixture(
        [case("a", command=["${WORKSPACE}/run.sh"], cwd="${WORKSPACE}")],
        workspace={"input": ".."},
    )
    result = load_fixture(write_file(fixtures_dir / "agentic_eval.json", document), gates=False)
    assert result.model is not None, [f.render() for f in result.findings]
    context = case_context(result.model, result.model.cases[0], fixtures_dir)
    # Statically, the workspace stands for its input: the command runs the skill's run.sh.
    assert context.cwd == fixtures_dir.parent
    assert context.placeholders["WORKSPACE"] == str(fixtures_dir.parent)


@pytest.mark.parametrize(
    ("parametrize", "code", "severity", "pointer"),
    [
        ({"SKILL_ROOT": ["x"]}, "AE-SCHEMA-VALUE", "error", "/cases/0/parametrize/SKILL_ROOT"),
        ({"UNUSED": ["x"]}, "AE-SCHEMA-VALUE", "warning", "/cases/0/parametrize/UNUSED"),
        (
            {"A": [str(n) for n in range(40)], "B": [str(n) for n in range(30)]},
            "AE-SCHEMA-VALUE",
            "error",
            "/cases/0/parametrize",
        ),
        ({"not-a-name": ["x"]}, "AE-SCHEMA-UNKNOWN", "error", "/cases/0/parametrize/not-a-name"),
        ({}, "AE-SCHEMA-VALUE", "error", "/cases/0/parametrize"),
        ({"A": []}, "AE-SCHEMA-VALUE", "error", "/cases/0/parametrize/A"),
        ({"A": "x"}, "AE-SCHEMA-TYPE", "error", "/cases/0/parametrize/A"),
    ],
)
def test_parametrize_rules(
    write_fixture: WriteFixture,
    parametrize: dict[str, Any],
    code: str,
    severity: str,
    pointer: str,
) -> None:
    words = [*RUN, "${A}", "${B}"] if "A" in parametrize else RUN
    one = case("a", command=words, parametrize=parametrize)
    result = load_fixture(write_fixture(fixture([one])), gates=False)
    found = [(f.code, f.severity, f.pointer) for f in result.findings]
    assert (code, severity, pointer) in found, found
    assert result.ok is (severity == "warning")


def test_skill_root_rules(fixtures_dir: Path) -> None:
    (fixtures_dir.parent / "file.txt").write_text("x")
    for value, reason in [
        ("/abs", "is absolute"),
        ("${SKILL_ROOT}", "takes no placeholder"),
        ("../nowhere", "names no directory"),
        ("../file.txt", "names no directory"),
    ]:
        document = fixture([case("a", command=RUN)], skill_root=value)
        path = write_file(fixtures_dir / "agentic_eval.json", document)
        result = load_fixture(path, gates=False)
        assert [(f.code, f.pointer) for f in result.errors] == [
            ("AE-PATH-SKILL-ROOT", "/skill_root")
        ], value
        assert reason in result.errors[0].message


def test_a_path_from_a_builtin_stays_inside_it(write_fixture: WriteFixture) -> None:
    one = case(
        "a",
        command=RUN,
        expected={"exit_code": 0, "artifacts": [{"path": "${FIXTURE_DIR}/../../outside.json"}]},
    )
    errors = errors_of(write_fixture, fixture([one]))
    assert [(c, p) for c, p, _, _ in errors] == [
        ("AE-PATH-ESCAPE", "/cases/0/expected/artifacts/0/path")
    ]


def test_placeholder_functions() -> None:
    values = {"SKILL_ROOT": "/s", "V": "v"}
    assert substitute("${V}-$${V}-${X}", {"V": "v"}) == "v-$${V}-${X}"
    assert resolve("${SKILL_ROOT}/a $${SKILL_ROOT}", values) == "/s/a ${SKILL_ROOT}"
    assert path_root("${SKILL_ROOT}/a/b") == ("SKILL_ROOT", "a/b")
    assert path_root("${SKILL_ROOT}") == ("SKILL_ROOT", ".")
    assert path_root("${SKILL_ROOTS}/a") == (None, "${SKILL_ROOTS}/a")


def test_an_error_in_one_variant_names_it(write_fixture: WriteFixture) -> None:
    text = (
        HEAD
        + """\
  - name: a
    type: positive
    parametrize: {D: [., ../../..]}
    command: [bash, ../run.sh]
    cwd: "${D}"
    expected: {exit_code: 0}
"""
    )
    errors = errors_of(write_fixture, text, "agentic_eval.yaml")
    assert len(errors) == 1
    code, pointer, line, message = errors[0]
    assert (code, pointer, line) == ("AE-PATH-ESCAPE", "/cases/0/cwd", 9)
    assert message.endswith("(in a[../../..])")


def test_an_expanded_case_is_annotated_at_its_written_line(write_fixture: WriteFixture) -> None:
    text = (
        HEAD
        + """\
  - name: first
    type: negative
    command: [bash, ../run.sh]
    expected: {exit_code: 1}
  - name: each
    type: positive
    parametrize: {V: [x, y]}
    command: [bash, ../run.sh, "${V}"]
    expected: {exit_code: 0}
"""
    )
    path = write_fixture(text, "agentic_eval.yaml")
    lines = case_lines(path, sha256_bytes(path.read_bytes()))
    assert lines == {"first": 5, "each[x]": 9, "each[y]": 9}
