"""A private view of the skill tree for every trial (``isolation: auto|overlay|copy|none``).

- :mod:`.support` finds out once per run what this kernel allows;
- :mod:`.modes` decides each case's mode from what it asks and what is there;
- :mod:`.mounts` gives each trial thread a mount namespace of its own, and
  :mod:`.overlay` mounts overlays in it; :mod:`.upper` reads a trial's changes
  from its upper layer;
- :mod:`.copy` is the copy of a workspace, for when overlays are unavailable;
- :mod:`.views` is what a trial runs in, whatever the mode, with the tree as
  it was before the trial
  (:class:`~agentic_evals.oracles.base.PreTrialState`);
- :mod:`.run` ties them together for one run.

See ``docs/isolation.md`` for what each mode guarantees and what it does not.
"""
