"""Strict JSON and YAML parsing: duplicates, YAML 1.2 scalars, positions, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_evals.documents.positions import MAX_DEPTH, position_of
from agentic_evals.documents.yaml_io import format_for, parse_bytes, read_document


def codes_of(data: str, fmt: str) -> list[tuple[str, str, int | None, int | None]]:
    parsed = parse_bytes(data.encode(), fmt)  # type: ignore[arg-type]
    return [(f.code, f.pointer, f.line, f.column) for f in parsed.findings]


def test_json_duplicate_keys_are_errors_with_object_pointer_and_position() -> None:
    text = '{\n  "a": 1,\n  "b": {"c": 1, "c": 2},\n  "a": 3\n}\n'
    parsed = parse_bytes(text.encode(), "json")
    assert parsed.parsed
    found = {(f.pointer, f.message): (f.line, f.column) for f in parsed.findings}
    assert found == {
        ("", "duplicate key 'a'"): (4, 3),
        ("/b", "duplicate key 'c'"): (3, 17),
    }
    assert all(f.code == "AE-SCHEMA-DUPLICATE" for f in parsed.findings)


def test_yaml_duplicate_keys_are_errors_with_position() -> None:
    text = "skill: x\ncases:\n  - name: a\n    name: b\nskill: y\n"
    found = codes_of(text, "yaml")
    assert ("AE-SCHEMA-DUPLICATE", "/cases/0", 4, 5) in found
    assert ("AE-SCHEMA-DUPLICATE", "", 5, 1) in found


def test_yaml_dates_stay_strings() -> None:
    parsed = parse_bytes(b"expires: 2026-01-31\nat: 2026-01-31T10:00:00Z\n", "yaml")
    assert parsed.value == {"expires": "2026-01-31", "at": "2026-01-31T10:00:00Z"}


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Yes", "OFF"])
def test_yaml_only_true_and_false_are_booleans(word: str) -> None:
    parsed = parse_bytes(f"a: {word}\nb: true\nc: false\n".encode(), "yaml")
    assert parsed.value == {"a": word, "b": True, "c": False}


def test_yaml_numbers_follow_yaml_1_2() -> None:
    parsed = parse_bytes(b"a: 010\nb: 0x1f\nc: 0o17\nd: 1.5\ne: 1_000\nf: ~\n", "yaml")
    assert parsed.value == {"a": 10, "b": 31, "c": 15, "d": 1.5, "e": "1_000", "f": None}


@pytest.mark.parametrize(
    ("text", "fmt", "pointer"),
    [
        ('{"a": NaN}', "json", "/a"),
        ('{"a": [Infinity]}', "json", "/a/0"),
        ('{"a": -Infinity}', "json", "/a"),
        ('{"a": 1e400}', "json", "/a"),
        ("a: .nan\n", "yaml", "/a"),
        ("a: [-.inf]\n", "yaml", "/a/0"),
    ],
)
def test_non_finite_numbers_are_rejected(text: str, fmt: str, pointer: str) -> None:
    found = codes_of(text, fmt)
    assert [(code, at) for code, at, _, _ in found] == [("AE-SCHEMA-VALUE", pointer)]


def test_json_syntax_error_has_line_and_column() -> None:
    parsed = parse_bytes(b'{\n  "a": 1,\n  "b": ]\n}', "json")
    assert not parsed.parsed
    (finding,) = parsed.findings
    assert (finding.code, finding.pointer, finding.line, finding.column) == (
        "AE-SCHEMA-SYNTAX",
        "",
        3,
        8,
    )


def test_yaml_syntax_error_has_line_and_column() -> None:
    parsed = parse_bytes(b"a: 1\nb: [1, 2\nc: 3\n", "yaml")
    assert not parsed.parsed
    (finding,) = parsed.findings
    assert finding.code == "AE-SCHEMA-SYNTAX"
    assert finding.line is not None and finding.line >= 2


def test_yaml_with_two_documents_is_a_syntax_error() -> None:
    assert codes_of("a: 1\n---\nb: 2\n", "yaml")[0][0] == "AE-SCHEMA-SYNTAX"


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    parsed = read_document(tmp_path / "nope.json")
    assert not parsed.parsed
    assert [f.code for f in parsed.findings] == ["AE-FILE-UNREADABLE"]


def test_directory_is_unreadable(tmp_path: Path) -> None:
    assert [f.code for f in read_document(tmp_path).findings] == ["AE-FILE-UNREADABLE"]


def test_non_utf8_is_unreadable() -> None:
    parsed = parse_bytes(b'{"a": "\xff"}', "json")
    assert not parsed.parsed
    assert [f.code for f in parsed.findings] == ["AE-FILE-UNREADABLE"]


def test_utf8_bom_is_accepted() -> None:
    assert parse_bytes(b'\xef\xbb\xbf{"a": 1}', "json").value == {"a": 1}


def test_lone_surrogates_are_rejected() -> None:
    assert codes_of('{"a": "\\ud800"}', "json")[0][:2] == ("AE-SCHEMA-VALUE", "/a")
    assert codes_of('a: "\\ud800"\n', "yaml")[0][:2] == ("AE-SCHEMA-VALUE", "/a")


def test_recursive_alias_is_rejected() -> None:
    found = codes_of("a: &x [1, *x]\n", "yaml")
    assert [(code, at) for code, at, _, _ in found] == [("AE-SCHEMA-SYNTAX", "/a/1")]


def test_alias_bomb_is_rejected_not_expanded() -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for index in range(1, 9):
        prev, name = chr(96 + index), chr(97 + index)
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    parsed = parse_bytes("\n".join(lines).encode(), "yaml")
    assert not parsed.parsed
    assert parsed.findings[0].code == "AE-SCHEMA-VALUE"


def test_aliases_within_bounds_are_expanded() -> None:
    parsed = parse_bytes(b"base: &b [x, y]\ncopy: *b\n", "yaml")
    assert parsed.value == {"base": ["x", "y"], "copy": ["x", "y"]}
    assert parsed.findings == ()


def test_non_string_keys_and_unknown_tags_are_rejected() -> None:
    found = codes_of("1: a\nb: !!binary aGk=\nc: !custom x\n", "yaml")
    assert ("AE-SCHEMA-TYPE", "", 1, 1) in found
    assert {(code, at) for code, at, _, _ in found} >= {
        ("AE-SCHEMA-SYNTAX", "/b"),
        ("AE-SCHEMA-SYNTAX", "/c"),
    }


def test_deep_nesting_is_rejected_without_recursion_error() -> None:
    deep = "[" * (MAX_DEPTH + 10) + "]" * (MAX_DEPTH + 10)
    assert codes_of(deep, "json")[0][0] == "AE-SCHEMA-VALUE"
    very_deep = "[" * 100_000 + "]" * 100_000
    assert codes_of(very_deep, "json")[0][0] in {"AE-SCHEMA-SYNTAX", "AE-SCHEMA-VALUE"}
    assert codes_of(very_deep, "yaml")[0][0] in {"AE-SCHEMA-SYNTAX", "AE-SCHEMA-VALUE"}


def test_positions_point_at_keys_and_items() -> None:
    parsed = parse_bytes(b'{"cases": [\n  {"name": "a"}\n]}', "json")
    assert parsed.positions["/cases"] == (1, 2)
    assert parsed.positions["/cases/0"] == (2, 3)
    assert parsed.positions["/cases/0/name"] == (2, 4)
    assert position_of("/cases/0/missing/deeper", parsed.positions) == (2, 3)


def test_positions_escape_pointer_tokens() -> None:
    parsed = parse_bytes(b'{"a/b": {"~c": 1}}', "json")
    assert "/a~1b/~0c" in parsed.positions


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("f.json", "json"), ("f.YAML", "yaml"), ("f.yml", "yaml"), ("f.txt", "auto"), ("f", "auto")],
)
def test_format_follows_extension(name: str, fmt: str) -> None:
    assert format_for(Path(name)) == fmt


def test_auto_format_tries_json_then_yaml() -> None:
    assert parse_bytes(b'{"a": 1}', "auto").value == {"a": 1}
    assert parse_bytes(b"a: yes\n", "auto").value == {"a": "yes"}
    # Text that looks like JSON reports the JSON error.
    assert "invalid JSON" in parse_bytes(b'{"a": ', "auto").findings[0].message


def test_json_file_is_not_parsed_as_yaml() -> None:
    assert codes_of("a: 1\n", "json")[0][0] == "AE-SCHEMA-SYNTAX"
