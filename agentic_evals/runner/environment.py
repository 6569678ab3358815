"""What a trial's process sees: environment and working directory.

Trials inherit the user's environment: an activated virtual environment
(``VIRTUAL_ENV`` and its ``bin`` on ``PATH``), conda, ``PYTHONPATH``, all of
it, so that a skill finds the dependencies its user installed. Only the
tool's own private environment is taken out: the ``.venv`` that ``run.sh``
bootstraps for agentic-evals (recognised by the stamp file ``run.sh`` leaves
in it), that is its ``bin`` on ``PATH``, ``VIRTUAL_ENV`` and
``VIRTUAL_ENV_PROMPT`` when they point there, and what ``run.sh`` changed for
the tool's own start-up (``PYTHONPYCACHEPREFIX``, ``PYTHONDONTWRITEBYTECODE``,
``PYTHONPATH``)
put back as the user had it. Nothing else is added or loaded (no ``.env``
files).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

PRIVATE_STAMP: Final = ".installed"
"""The file ``run.sh`` writes into the environment it bootstraps."""
SAVED_PREFIX: Final = "AGENTIC_EVALS_USER_"
"""``run.sh`` keeps the user's value of a variable it changes as ``AGENTIC_EVALS_USER_<NAME>``."""
CHANGED_BY_RUN_SH: Final = ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
"""The variables ``run.sh`` sets or unsets for the tool's own start-up."""

RUN_ID_VAR = "AGENTIC_EVALS_RUN_ID"
CASE_VAR = "AGENTIC_EVALS_CASE"
TRIAL_VAR = "AGENTIC_EVALS_TRIAL"


def private_environment() -> Path | None:
    """The tool's own bootstrapped virtual environment, when it runs in one; else None."""
    if sys.prefix == sys.base_prefix:
        return None
    prefix = Path(sys.prefix)
    return prefix if (prefix / PRIVATE_STAMP).is_file() else None


def _inside(path: str, root: Path) -> bool:
    where = Path(os.path.normpath(os.path.abspath(path)))
    return where == root or root in where.parents


def base_environment(
    base: Mapping[str, str] | None = None, private: Path | None = None
) -> dict[str, str]:
    """The environment every trial starts from: ``base`` (the runner's) without ``private``.

    Args:
        base: The runner's environment (default ``os.environ``).
        private: The tool's own virtual environment (see :func:`private_environment`);
            None takes nothing out but what ``run.sh`` saved and changed.
    """
    env = dict(os.environ if base is None else base)
    for name in CHANGED_BY_RUN_SH:
        saved = env.pop(SAVED_PREFIX + name, None)
        if saved == "" and name == "PYTHONPATH":
            env.pop(name, None)  # run.sh saves an unset PYTHONPATH as empty
        elif saved is not None:
            env[name] = saved
        elif private is not None and name in env and _inside(env[name], private):
            del env[name]
    if private is None:
        return env
    root = Path(os.path.normpath(os.path.abspath(private)))
    if env.get("VIRTUAL_ENV") and _inside(env["VIRTUAL_ENV"], root):
        env.pop("VIRTUAL_ENV")
        env.pop("VIRTUAL_ENV_PROMPT", None)
    if "PATH" in env:
        kept = [
            part for part in env["PATH"].split(os.pathsep) if not (part and _inside(part, root))
        ]
        env["PATH"] = os.pathsep.join(kept)
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
