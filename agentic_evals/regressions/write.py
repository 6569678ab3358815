"""``verify --write`` and ``add``: write the registry back, atomically, keeping the rest.

The registry is rewritten from its own bytes: key order, unknown keys and
every other value are kept. For each verified record, ``last_proven`` becomes
the day it verified (where the record keeps it: at the top, inside
``fail_before_fix`` as the alias, or both; a record with neither gets it right
after ``fail_before_fix``) and ``verification`` (what that date rests on)
follows it. The file is written through the one atomic writer (a temporary
file and a rename, the file's mode kept), so a reader never sees half a
registry, and not at all when it changed on disk since it was loaded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from agentic_evals.documents.bounded import BoundError, loads_json, read_regular
from agentic_evals.limits import MAX_DOCUMENT_BYTES
from agentic_evals.regressions.models import Verification
from agentic_evals.reports.json_out import write_text_atomic


class RegistryChangedError(Exception):
    """The registry changed on disk after it was loaded: it is not overwritten."""


def parse_registry(source: bytes) -> dict[str, object]:
    """The registry document of ``source``.

    Raises:
        ValueError: ``source`` is not a JSON object with a ``regressions`` list.
    """
    document = loads_json(source.decode("utf-8-sig"), "the registry")
    if not isinstance(document, dict) or not isinstance(document.get("regressions"), list):
        raise ValueError("not a registry: no regressions list")
    return document


def dump_registry(document: Mapping[str, object], source: bytes) -> str:
    """``document`` as JSON text, indented as ``source`` is."""
    return json.dumps(document, indent=_indent(source), ensure_ascii=False) + "\n"


def with_verifications(source: bytes, verified: Mapping[str, Verification]) -> str:
    """The registry text with ``last_proven`` and ``verification`` of the ``verified`` records.

    Pure.

    Raises:
        ValueError: ``source`` is not a JSON object with a ``regressions`` list.
    """
    document = parse_registry(source)
    records = document["regressions"]
    assert isinstance(records, list)
    for index, record in enumerate(records):
        ident = record.get("regression_id") if isinstance(record, dict) else None
        if isinstance(record, dict) and isinstance(ident, str) and ident in verified:
            records[index] = stamped(record, verified[ident])
    return dump_registry(document, source)


def stamped(record: dict[str, object], verification: Verification) -> dict[str, object]:
    """``record`` with ``last_proven`` and ``verification`` from ``verification``."""
    day = verification.date
    value = verification.model_dump(mode="json")
    proof = record.get("fail_before_fix")
    aliased = isinstance(proof, dict) and "last_proven" in proof
    if isinstance(proof, dict) and aliased:
        proof["last_proven"] = day
    after = "last_proven" if "last_proven" in record else "fail_before_fix"
    result: dict[str, object] = {}
    for key, item in record.items():
        if key == "verification":
            continue
        result[key] = day if key == "last_proven" else item
        if key == after:
            if not aliased and "last_proven" not in record:
                result["last_proven"] = day
            result["verification"] = value
    if not aliased:
        result.setdefault("last_proven", day)
    result.setdefault("verification", value)
    return result


def _indent(source: bytes) -> int:
    """The indent the file uses (the first indented line), 2 when it has none."""
    match = re.search(rb"\n( +)\S", source)
    return len(match.group(1)) if match else 2


def write_registry(path: Path, loaded_source: bytes, text: str) -> None:
    """Replace the registry at ``path`` with ``text``, unless it changed since it was loaded.

    Raises:
        RegistryChangedError: the file's bytes are no longer those that were loaded.
        OSError: the file cannot be read or written.
    """
    try:
        current = read_regular(path, MAX_DOCUMENT_BYTES)
    except FileNotFoundError:
        raise RegistryChangedError(
            f"{path} was removed since it was loaded; it was not written"
        ) from None
    except (OSError, BoundError) as error:
        reason = error.rule if isinstance(error, BoundError) else error.strerror or error
        message = f"{path} can no longer be read ({reason}); it was not written"
        raise RegistryChangedError(message) from None
    if current != loaded_source:
        raise RegistryChangedError(f"{path} changed since it was loaded; it was not written")
    write_text_atomic(path, text)


def record_verifications(
    path: Path, loaded_source: bytes, verified: Mapping[str, Verification]
) -> None:
    """Write ``last_proven`` and ``verification`` of the ``verified`` records into ``path``.

    Raises:
        RegistryChangedError: the file's bytes are no longer those that were loaded.
        OSError: the file cannot be read or written.
    """
    write_registry(path, loaded_source, with_verifications(loaded_source, verified))
