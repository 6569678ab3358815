"""Write schemas/*.schema.json (every document agentic-evals reads or writes) from the models.

Usage: python scripts/gen_schemas.py [--check]

With --check, write nothing and exit 1 when a committed schema differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agentic_evals.cli.schemas import SCHEMAS, spec
from agentic_evals.documents.schema_gen import dump_schema

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for kind in SCHEMAS:
        document = spec(kind)
        target = SCHEMA_DIR / document.file
        text = dump_schema(document.build())
        if check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(document.file)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {target}")
    for name in stale:
        print(f"schemas/{name} is out of date: run scripts/gen_schemas.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
