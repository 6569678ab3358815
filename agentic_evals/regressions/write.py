"""``verify --write``: record ``last_proven`` for the verified regressions, atomically.

The registry is rewritten from its own bytes: key order, unknown keys and
every other value are kept; only ``last_proven`` changes (where the record
keeps it: at the top, inside ``fail_before_fix`` as the alias, or both; a
record with neither gets it right after ``fail_before_fix``). The file is
written through a temporary file and a rename, so a reader never sees half a
registry, and not at all when it changed on disk since it was loaded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

from agentic_evals.reports.json_out import write_text_atomic


class RegistryChangedError(Exception):
    """The registry changed on disk after it was loaded: it is not overwritten."""


def with_last_proven(source: bytes, ids: Collection[str], day: str) -> str:
    """Return the registry text with ``last_proven`` set to ``day`` on the records ``ids``. Pure.

    Raises:
        ValueError: ``source`` is not a JSON object with a ``regressions`` list.
    """
    document = json.loads(source.decode("utf-8-sig"))
    records = document.get("regressions") if isinstance(document, dict) else None
    if not isinstance(records, list):
        raise ValueError("not a registry: no regressions list")
    for index, record in enumerate(records):
        if isinstance(record, dict) and record.get("regression_id") in ids:
            records[index] = _stamped(record, day)
    return json.dumps(document, indent=_indent(source), ensure_ascii=False) + "\n"


def _stamped(record: dict[str, object], day: str) -> dict[str, object]:
    proof = record.get("fail_before_fix")
    aliased = isinstance(proof, dict) and "last_proven" in proof
    if isinstance(proof, dict) and aliased:
        proof["last_proven"] = day
    if "last_proven" in record or aliased:
        if "last_proven" in record:
            record["last_proven"] = day
        return record
    stamped: dict[str, object] = {}
    for key, value in record.items():
        stamped[key] = value
        if key == "fail_before_fix":
            stamped["last_proven"] = day
    stamped.setdefault("last_proven", day)
    return stamped


def _indent(source: bytes) -> int:
    """The indent the file uses (the first indented line), 2 when it has none."""
    match = re.search(rb"\n( +)\S", source)
    return len(match.group(1)) if match else 2


def record_last_proven(path: Path, loaded_source: bytes, ids: Collection[str], day: str) -> None:
    """Write ``day`` as ``last_proven`` of the records ``ids`` into the registry at ``path``.

    Raises:
        RegistryChangedError: the file's bytes are no longer those that were loaded.
        OSError: the file cannot be read or written.
    """
    if path.read_bytes() != loaded_source:
        raise RegistryChangedError(f"{path} changed since it was loaded; last_proven not written")
    write_text_atomic(path, with_last_proven(loaded_source, ids, day))
