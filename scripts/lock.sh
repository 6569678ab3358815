#!/usr/bin/env bash
# Rewrites constraints.txt: the newest versions pyproject.toml's ranges allow, installed
# into a throw-away venv and frozen, so that CI and ./run.sh install exactly those.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
python3 -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "setuptools>=77" "$HERE[test]"
{
  echo "# Exact versions CI and ./run.sh install (pyproject.toml declares the ranges)."
  echo "# Regenerate after a change of ranges: scripts/lock.sh"
  "$TMP/venv/bin/python" -m pip freeze --all --exclude-editable --disable-pip-version-check |
    grep -v -i -E '^(agentic-evals|pip)(==| @)' | sort -f
} >"$HERE/constraints.txt.new"
mv "$HERE/constraints.txt.new" "$HERE/constraints.txt"
