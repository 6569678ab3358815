"""What a trial's process sees: environment and working directory (SPEC 3.1)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

# Variables that would make a trial run inside agentic-evals' own virtual
# environment instead of the one its skill expects.
VENV_VARIABLES = frozenset(
    {
        "VIRTUAL_ENV",
        "VIRTUAL_ENV_PROMPT",
        "PYTHONHOME",
        "PYTHONEXECUTABLE",
        "__PYVENV_LAUNCHER__",
        "CONDA_PREFIX",
        "CONDA_DEFAULT_ENV",
        "CONDA_PROMPT_MODIFIER",
    }
)

RUN_ID_VAR = "AGENTIC_EVALS_RUN_ID"
CASE_VAR = "AGENTIC_EVALS_CASE"
TRIAL_VAR = "AGENTIC_EVALS_TRIAL"


def _venv_bin_dirs(base: Mapping[str, str]) -> set[str]:
    dirs = set()
    if base.get("VIRTUAL_ENV"):
        dirs.add(os.path.join(base["VIRTUAL_ENV"], "bin"))
    if sys.prefix != sys.base_prefix:
        dirs.add(os.path.join(sys.prefix, "bin"))
    return {os.path.normpath(d) for d in dirs}


def base_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return the runner's environment minus virtual-environment variables.

    The virtual environment's ``bin`` directory is also taken off ``PATH``.
    Nothing else is added or loaded (no ``.env`` files).
    """
    source = dict(os.environ if base is None else base)
    venv_bins = _venv_bin_dirs(source)
    env = {k: v for k, v in source.items() if k not in VENV_VARIABLES}
    if "PATH" in env:
        parts = [p for p in env["PATH"].split(os.pathsep) if os.path.normpath(p) not in venv_bins]
        env["PATH"] = os.pathsep.join(parts)
    return env


def trial_environment(
    base: Mapping[str, str],
    case_env: Mapping[str, str],
    *,
    run_id: str,
    case_name: str,
    trial: int,
) -> dict[str, str]:
    """Return the environment of one trial: base, plus the case's, plus markers.

    The markers come last so that a case cannot forge another trial's
    identity (the process supervisor attributes escaped descendants by them).
    """
    env = dict(base)
    env.update(case_env)
    env[RUN_ID_VAR] = run_id
    env[CASE_VAR] = case_name
    env[TRIAL_VAR] = str(trial)
    return env


def trial_cwd(fixture_dir: Path, case_cwd: str | None) -> Path:
    """Return the working directory: the fixture's directory or ``cwd`` under it."""
    return fixture_dir if case_cwd is None else fixture_dir / case_cwd
