"""The tree as it was before a trial ran, for judging checks against it.

Evidence rules ask whether a check would also pass had the command done
nothing (the "null trial"): an artifact check is evaluated against the state
of the tree before the trial. Each isolated trial keeps that state at hand:

- ``overlay``: the lower layer, which the trial never writes to;
- ``copy``: the workspace input the copy was made from, which the trial does
  not run in.

A trial on the shared tree (``isolation: none``) has none: it changed the
very files the state would be read from.

The paths are valid in the thread that ran the trial, where it is judged,
until the run ends (the lower layer is a bind mount in that thread's private
namespace). Each trial's state is
:attr:`agentic_evals.runner.trials.UnjudgedTrial.pre_trial`. A trial on the
shared tree that runs meanwhile changes the tree underneath, so a serial run
judges every trial whose checks read files before the next one starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from agentic_evals.oracles.base import OracleContext

PreTrialSource = Literal["lower", "copy_source"]
"""Where the pre-trial state is read from: an overlay's lower layer, or a copy's source."""


@dataclass(frozen=True)
class PreTrialState:
    """The pre-trial tree of one trial, laid out like the trial's own view."""

    source: PreTrialSource
    """``lower`` (overlay) or ``copy_source`` (the input of a copy)."""
    root: Path
    """The pre-trial counterpart of the trial's boundary (skill tree or workspace)."""
    artifact_root: Path
    """The pre-trial counterpart of the directory artifact paths are relative to."""

    def oracle_context(self) -> OracleContext:
        """An oracle context that reads artifacts from the pre-trial tree."""
        return OracleContext(artifact_root=self.artifact_root, boundary=self.root)
