"""Front matter: strict, in-process, every problem a finding with its SKILL.md line."""

from __future__ import annotations

from pathlib import Path

from agentic_evals.skills.frontmatter import parse_front_matter, read_front_matter


def test_plain_front_matter_is_read_with_key_lines() -> None:
    front = parse_front_matter("---\nname: demo\ncomposes:\n  - agentic-evals\n---\n# demo\n")
    assert front.data == {"name": "demo", "composes": ["agentic-evals"]}
    assert front.issues == []
    assert front.key_lines == {"name": 2, "composes": 3}


def test_dates_and_yes_stay_strings() -> None:
    front = parse_front_matter("---\nupdated: 2026-01-31\nlive: yes\n---\n")
    assert front.data == {"updated": "2026-01-31", "live": "yes"}


def test_fenced_front_matter_is_read_with_a_warning() -> None:
    front = parse_front_matter("````markdown\n---\nname: demo\n---\n# demo\n````\n")
    assert front.data == {"name": "demo"}
    assert [(i.code, i.severity, i.line) for i in front.issues] == [("EVAL004", "warning", 1)]
    assert "code fence" in front.issues[0].message
    assert front.key_lines == {"name": 3}


def test_missing_front_matter_is_an_error_not_an_exception() -> None:
    front = parse_front_matter("# demo\n\nno front matter here\n")
    assert front.data is None
    assert [(i.code, i.severity, i.line) for i in front.issues] == [("EVAL003", "error", 1)]


def test_front_matter_after_a_blank_line_is_missing() -> None:
    assert parse_front_matter("\n---\nname: demo\n---\n").issues[0].code == "EVAL003"


def test_unclosed_front_matter() -> None:
    front = parse_front_matter("---\nname: demo\n# demo\n")
    assert front.data is None
    assert "never closed" in front.issues[0].message


def test_broken_yaml_names_the_skill_md_line() -> None:
    front = parse_front_matter("---\nname: demo\ndescription: [unclosed\n---\n")
    assert front.data is None
    (issue,) = front.issues
    assert issue.code == "EVAL003" and issue.severity == "error"
    assert issue.line is not None and issue.line >= 3
    assert issue.message.startswith("broken front matter")


def test_duplicate_keys_are_a_finding_and_the_data_is_kept() -> None:
    front = parse_front_matter("---\nname: demo\ncomposes: []\nname: other\n---\n")
    assert front.data is not None
    (issue,) = front.issues
    assert issue.code == "EVAL003" and "duplicate key 'name'" in issue.message
    assert issue.line == 4


def test_front_matter_must_be_a_mapping() -> None:
    for text in ("---\n- a\n- b\n---\n", "---\n---\n", "---\njust words\n---\n"):
        front = parse_front_matter(text)
        assert front.data is None
        assert [i.code for i in front.issues] == ["EVAL003"], text


def test_unreadable_and_non_utf8_skill_md(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"---\nname: \xff\n---\n")
    assert "not UTF-8" in read_front_matter(path).issues[0].message
    assert "cannot read" in read_front_matter(tmp_path / "absent.md").issues[0].message


def test_crlf_and_bom_are_tolerated() -> None:
    front = parse_front_matter("\ufeff---\r\nname: demo\r\n---\r\n")
    assert front.data == {"name": "demo"} and front.issues == []
