#!/usr/bin/env bash
# Entry point: bootstraps .venv on first use, then passes its arguments to the CLI.
#   ./run.sh run fixtures/agentic_eval.json   evaluate a fixture
#   ./run.sh test                             ruff, mypy (package, tests, scripts) and pytest
#   ./run.sh bench                            benchmarks (run by hand)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
STAMP="$VENV/.installed"
# A path entry instead of setuptools' import hook: the hook costs every start-up ~8 ms.
INSTALL_MODE=compat

bootstrap() {
  local want
  # The install method and the pinned versions are part of the stamp, so that changing
  # either reinstalls.
  want="$( (cat "$HERE/pyproject.toml" "$HERE/constraints.txt"; echo "$INSTALL_MODE") | sha256sum | cut -d' ' -f1)"
  if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    return
  fi
  if [[ -L "$VENV" ]]; then
    # A copy of a checkout (a regression proof's broken tree) borrows the original's
    # venv: installing this copy into it would repoint the original at a throwaway tree.
    echo "agentic-evals: $VENV is linked from another checkout and was not made for this pyproject.toml; not installing into it" >&2
    exit 2
  fi
  echo "agentic-evals: preparing $VENV (first use)" >&2
  python3 -m venv "$VENV"
  # constraints.txt pins every package (the build backend too, through PIP_CONSTRAINT).
  PIP_CONSTRAINT="$HERE/constraints.txt" "$VENV/bin/python" -m pip install --quiet \
    --disable-pip-version-check --config-settings "editable_mode=$INSTALL_MODE" -e "$HERE[test]" >&2
  echo "$want" >"$STAMP"
}

bootstrap
if [[ -L "$VENV" ]]; then
  # A borrowed venv's cache is the original's: bytecode of a throwaway copy stays out of it.
  unset PYTHONPYCACHEPREFIX
  export PYTHONDONTWRITEBYTECODE=1
else
  # Bytecode of the package and its imports is cached in the venv, never in the
  # checkout, even where PYTHONDONTWRITEBYTECODE is set: without a cache every
  # start compiles the package's sources again (about 60 ms).
  export PYTHONPYCACHEPREFIX="$VENV/pycache"
  unset PYTHONDONTWRITEBYTECODE
fi
# The sources beside this script run, also in a copy of the checkout whose venv
# was installed from the original.
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
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
