"""Redaction of secrets from report text."""

from __future__ import annotations

import pytest

from agentic_evals.redact import REDACTED, Redactor, redact_argv

R = Redactor({})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("token=abc123", "token=[REDACTED]"),
        ("GITHUB_TOKEN=ghp_abcdef", "GITHUB_TOKEN=[REDACTED]"),
        ("password: hunter2", "password: [REDACTED]"),
        ("passwd = s3cret!", "passwd = [REDACTED]"),
        ("client_secret:xyz", "client_secret:[REDACTED]"),
        (
            "api_key=k1 api-key=k2 apikey=k3",
            "api_key=[REDACTED] api-key=[REDACTED] apikey=[REDACTED]",
        ),
        ("API Key: k4", "API Key: [REDACTED]"),
        ('{"api_key": "sk-live-1", "user": "bob"}', '{"api_key": "[REDACTED]", "user": "bob"}'),
        ("{'password': 'p@ss word'}", "{'password': '[REDACTED]'}"),
        ('{"token":"a\\"b","n":1}', '{"token":"[REDACTED]","n":1}'),
        ("Authorization: Bearer eyJhbGciOi.J9.x", "Authorization: Bearer [REDACTED]"),
        ("authorization: Basic dXNlcjpwYXNz", "authorization: Basic [REDACTED]"),
        ("curl -H 'X: 1' bearer abc.def", "curl -H 'X: 1' bearer [REDACTED]"),
        ("run --token abc --verbose", "run --token [REDACTED] --verbose"),
        ("run --password=hunter2 -v", "run --password=[REDACTED] -v"),
        ("https://h/x?token=abc&page=2", "https://h/x?token=[REDACTED]&page=2"),
        ('secret = "two words" tail', "secret = [REDACTED] tail"),
    ],
)
def test_named_values_are_redacted(text: str, expected: str) -> None:
    assert R.redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "total_tokens: 1234",
        "max_tokens=100",
        "tokenizer: cl100k",
        "the password must be long",
        "key=value",
        "monkey: banana",
        "no secrets here",
    ],
)
def test_ordinary_text_is_kept(text: str) -> None:
    assert R.redact(text) == text


def test_env_values_of_secret_names_are_redacted_everywhere() -> None:
    redactor = Redactor(
        {
            "OPENAI_API_KEY": "sk-abcdef",
            "my_token": "tok-12345",
            "DB_PASSWORD": "pw-9999",
            "AWS_SECRET_ACCESS_KEY": "aws/secret+1",
            "SHORT_KEY": "abc",
            "HOME": "/home/user",
        }
    )
    text = "used sk-abcdef and tok-12345; pw-9999 aws/secret+1 abc in /home/user"
    assert redactor.redact(text) == (
        "used [REDACTED] and [REDACTED]; [REDACTED] [REDACTED] abc in /home/user"
    )


def test_longer_env_value_wins_over_its_prefix() -> None:
    redactor = Redactor({"A_KEY": "abcd", "B_KEY": "abcdefgh"})
    assert redactor.redact("x abcdefgh y abcd") == "x [REDACTED] y [REDACTED]"


def test_redaction_is_idempotent() -> None:
    redactor = Redactor({"X_TOKEN": "tok-12345"})
    once = redactor.redact('token=a "password": "b" Bearer c tok-12345')
    assert redactor.redact(once) == once
    assert once.count(REDACTED) == 4


def test_redact_argv_hides_the_value_after_a_secret_flag() -> None:
    argv = ["tool", "--token", "abc", "--api-key=k", "-H", "Authorization: Bearer zz", "--out", "x"]
    assert redact_argv(argv) == [
        "tool",
        "--token",
        REDACTED,
        "--api-key=[REDACTED]",
        "-H",
        "Authorization: Bearer [REDACTED]",
        "--out",
        "x",
    ]


def test_redact_argv_uses_env_values() -> None:
    argv = ["tool", "sk-abcdef", "--max-tokens", "100"]
    assert redact_argv(argv, {"OPENAI_API_KEY": "sk-abcdef"}) == [
        "tool",
        REDACTED,
        "--max-tokens",
        "100",
    ]
    assert Redactor({"OPENAI_API_KEY": "sk-abcdef"}).redact_argv(argv) == [
        "tool",
        REDACTED,
        "--max-tokens",
        "100",
    ]
