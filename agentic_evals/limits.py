"""Every bound agentic-evals puts on what it reads, parses and waits for, in one place.

Hostile or broken input must end in a clean verdict or a clean exit 2, never
in a hang, an exhausted memory or an internal error. Each bound below is
documented in ``docs/limits.md``, in the help of the options it bounds and in
the schemas of the fields it bounds; tests read the values from here.
"""

from __future__ import annotations

from typing import Final

MAX_DOCUMENT_BYTES: Final = 16 * 2**20
"""Largest document people write that is read (fixtures, registries, journey inputs,
configuration files, SKILL.md): 16 MiB, far beyond any real one."""
MAX_REPORT_BYTES: Final = 512 * 2**20
"""Largest document the tool itself wrote that is read back (reports given to
``merge``, ``report``, ``compare``, ``history import``, envelopes given to
``import eee``): 512 MiB."""
MAX_DEPTH: Final = 64
"""Deepest nesting of arrays and objects in any document people write; deeper is refused."""
MAX_REPORT_DEPTH: Final = 2 * MAX_DEPTH
"""Deepest nesting in a document the tool wrote (a report embeds values of a
fixture, themselves up to ``MAX_DEPTH`` deep, a few levels down)."""
MAX_VALUES: Final = 200_000
"""Values a YAML document may expand to through aliases; more is an alias bomb."""
MAX_INT_DIGITS: Final = 4_300
"""Longest integer literal read (Python's own conversion limit): longer is refused."""
MAX_NUMBER_TEXT: Final = 64
"""Longest text an option or environment variable parsed as a number may have."""

MAX_TIMEOUT_SECONDS: Final = 86_400.0
"""Longest timeout a trial or a proof may have: one day (the kernel's waits count
milliseconds in 32 bits, about 24.8 days)."""
MAX_ORACLE_SECONDS: Final = 60.0
"""Longest the checks of one trial may take together, after it ended (the trial's own
timeout does not cover them): past it, the checks not yet run are one ``ORACLE_TIMEOUT``."""
MAX_SHARD_TOTAL: Final = 10_000
"""Most shards a run may be split into."""
MAX_JOBS: Final = 1_024
"""Most trials run at once (``--jobs``)."""

FINDINGS_PER_CODE: Final = 100
"""Findings kept per code; the rest are counted in one summary finding."""

MAX_REGEX_BYTES: Final = 64 * 2**10
"""Longest pattern (``content_regex``), in UTF-8 bytes."""
MAX_REGEX_MEMORY: Final = 8 * 2**20
"""Memory the regular expression engine may use for one compiled pattern (RE2's
default): a pattern that needs more does not compile, and a search that would
need more falls back to RE2's slower, still linear, matcher."""
MAX_REGEX_INPUT_BYTES: Final = 64 * 2**20
"""Most bytes one search reads (the artifact read limit)."""

MAX_NAME_BYTES: Final = 255
"""Longest file name component Linux file systems take."""
