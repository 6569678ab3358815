#!/usr/bin/env bash
# Entry point: bootstraps .venv on first use, then passes its arguments to the CLI.
#   ./run.sh run fixtures/agentic_eval.json   evaluate a fixture
#   ./run.sh test                             ruff, mypy and pytest
#   ./run.sh bench                            benchmarks (run by hand)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
STAMP="$VENV/.installed"

bootstrap() {
  local want
  want="$(sha256sum "$HERE/pyproject.toml" | cut -d' ' -f1)"
  if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    return
  fi
  echo "agentic-evals: preparing $VENV (first use)" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$HERE[test]" >&2
  echo "$want" >"$STAMP"
}

bootstrap
case "${1:-}" in
  test)
    shift
    cd "$HERE"
    "$VENV/bin/ruff" check .
    "$VENV/bin/ruff" format --check .
    "$VENV/bin/mypy"
    exec "$VENV/bin/python" -m pytest "$@"
    ;;
  bench)
    shift
    exec "$VENV/bin/python" "$HERE/benchmarks/bench.py" "$@"
    ;;
  *)
    exec "$VENV/bin/agentic-evals" "$@"
    ;;
esac
