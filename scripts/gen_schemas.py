"""Write schemas/*.schema.json (fixture, report, fleet, coverage, regressions) from the models.

Usage: python scripts/gen_schemas.py [--check]

With --check, write nothing and exit 1 when a committed schema differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agentic_evals.schemas_gen import FLEET_SCHEMAS, dump_schema, fixture_schema, report_schema

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, schema in (
        ("fixture.schema.json", fixture_schema()),
        ("report.schema.json", report_schema()),
        *((name, generate()) for name, generate in FLEET_SCHEMAS.items()),
    ):
        target = SCHEMAS / name
        text = dump_schema(schema)
        if check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {target}")
    for name in stale:
        print(f"schemas/{name} is out of date: run scripts/gen_schemas.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
