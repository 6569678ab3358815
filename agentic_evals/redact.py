"""Secret redaction for report text (SPEC section 3.2).

Redaction is for what the report shows (stream excerpts, argv, messages):
oracles always run on the raw bytes, before and independently of this.

Two passes, both replacing with ``[REDACTED]``:

1. literal values of environment variables whose names contain ``KEY``,
   ``TOKEN``, ``SECRET`` or ``PASSWORD`` (any case; values shorter than 4
   characters are left alone, they would shred ordinary text), longest first;
2. values that follow a secret-looking name: ``name=value``,
   ``name: value``, ``"name": "value"``, ``--name value``, ``--name=value``
   and ``Bearer value``, where the name contains token, secret, api key
   (``api_key``, ``api-key``, ``apikey``), password, passwd,
   authorization or bearer. An authorization scheme (``Bearer``, ``Basic``,
   ``Token``) is kept and only the credential is hidden. Token counts
   (``tokens``, ``max_tokens``, ``tokenizer``) are not secrets and are kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

REDACTED: Final = "[REDACTED]"
"""What a secret is replaced with."""

MIN_ENV_SECRET_LENGTH: Final = 4
"""Shorter environment values are not redacted."""

_ENV_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.IGNORECASE)
_KEYWORD = r"(?:token(?!s|izer)|secret|api[ _-]?key|passw(?:or)?d|authorization|bearer)"
_NAME = rf"[\w.-]*{_KEYWORD}[\w.-]*"
_SCHEME = r"(?:(?:bearer|basic|token|digest)\s+)?"
_QUOTED = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'"
_BARE = r"[^\s\"',;&]+"

# "name": "value" (JSON and friends); the quotes are kept, the content hidden.
_QUOTED_PAIR = re.compile(
    rf"(?P<head>[\"']{_NAME}[\"']\s*[:=]\s*)(?P<q>[\"'])(?P<secret>(?:[^\"'\\]|\\.)*)(?P=q)",
    re.IGNORECASE,
)
# name=value, name: value, name = "value", Authorization: Bearer value.
_PAIR = re.compile(
    rf"(?P<head>(?<![\w.-]){_NAME}\s*[:=]\s*{_SCHEME})(?P<secret>{_QUOTED}|{_BARE})",
    re.IGNORECASE,
)
# --token value, --password=value, -api-key value.
_FLAG = re.compile(
    rf"(?P<head>(?<![\w-])--?{_NAME}(?:=|\s+))(?P<secret>{_QUOTED}|{_BARE})",
    re.IGNORECASE,
)
# A bare "Bearer xyz" with no header name in front.
_BEARER = re.compile(r"(?P<head>\bbearer\s+)(?P<secret>[\w.~+/=-]+)", re.IGNORECASE)
_FLAG_ONLY = re.compile(rf"--?{_NAME}", re.IGNORECASE)


def _hide(match: re.Match[str]) -> str:
    if match.group("secret") == REDACTED:
        return match.group(0)
    return match.group("head") + REDACTED


def _hide_quoted(match: re.Match[str]) -> str:
    quote = match.group("q")
    return f"{match.group('head')}{quote}{REDACTED}{quote}"


class Redactor:
    """Replaces secrets in report text with ``[REDACTED]``.

    Args:
        env: The environment the trials ran with (the runner's plus the
            case's ``env``); values of secret-named variables are hidden
            wherever they appear.
    """

    def __init__(self, env: Mapping[str, str]) -> None:
        values = {
            value
            for name, value in env.items()
            if _ENV_NAME.search(name) and len(value) >= MIN_ENV_SECRET_LENGTH
        }
        # Longest first, so a value containing another is hidden whole.
        self._values = sorted(values, key=lambda v: (-len(v), v))

    def redact(self, text: str) -> str:
        """Return ``text`` with every recognised secret replaced."""
        for value in self._values:
            text = text.replace(value, REDACTED)
        text = _QUOTED_PAIR.sub(_hide_quoted, text)
        text = _PAIR.sub(_hide, text)
        text = _FLAG.sub(_hide, text)
        return _BEARER.sub(_hide, text)

    def redact_argv(self, argv: Sequence[str]) -> list[str]:
        """Return a redacted copy of ``argv``.

        Besides redacting each argument, the argument after a bare secret flag
        (``--token``, ``--password``) is hidden whole: it is that flag's value.
        """
        redacted: list[str] = []
        hide_next = False
        for argument in argv:
            redacted.append(REDACTED if hide_next else self.redact(argument))
            hide_next = _FLAG_ONLY.fullmatch(argument) is not None
        return redacted


def redact_argv(argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Return a redacted copy of ``argv`` (see ``Redactor.redact_argv``).

    Args:
        argv: The command as run.
        env: The trial environment, when its secret values should be hidden too.
    """
    return Redactor(env or {}).redact_argv(argv)
