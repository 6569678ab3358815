#!/usr/bin/env bash
# Install the package next to the lowest supported click and pydantic
# (constraints-lowest.txt) in a throw-away virtual environment, then evaluate a
# small fixture with it: the ranges in pyproject.toml must hold at their floor.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -c "$HERE/constraints-lowest.txt" "$HERE"
"$WORK/venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null |
  grep -Ei '^(click|pydantic) '
cd "$WORK"
export XDG_DATA_HOME="$WORK/data"  # its runs are recorded in a history of its own
"$WORK/venv/bin/agentic-evals" validate "$HERE/fixtures/agentic_eval.json"
"$WORK/venv/bin/agentic-evals" run "$HERE/examples/evals/csv-to-json/agentic_eval.yaml" \
  --output "$WORK/report.json"
echo "lowest supported click and pydantic: install and smoke evaluation passed"
