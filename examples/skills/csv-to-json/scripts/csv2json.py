"""Convert a CSV file with a header row into a JSON list of objects."""

import csv
import json
import os
import sys
import tempfile


def main(argv: list[str]) -> int:
    """Convert ``argv[0]`` into ``argv[1]``; the exit code says how it went."""
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        print("usage: csv2json.py INPUT.csv OUTPUT.json", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    source, target = argv
    try:
        with open(source, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError as error:
        print(f"error: cannot read {source}: {error.strerror}", file=sys.stderr)
        return 1
    if not rows:
        print(f"error: {source} has no header row", file=sys.stderr)
        return 3
    header, records = rows[0], []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            noun = "field" if len(row) == 1 else "fields"
            print(
                f"error: row {number} has {len(row)} {noun}, the header has {len(header)}",
                file=sys.stderr,
            )
            return 3
        records.append(dict(zip(header, row, strict=True)))
    folder = os.path.dirname(os.path.abspath(target))
    fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(records, out, ensure_ascii=False, indent=2)
    os.replace(temporary, target)
    print(f"wrote {len(records)} rows to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
