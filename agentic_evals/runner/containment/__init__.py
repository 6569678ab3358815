"""Containment of each trial's processes, where the kernel gives it.

- :mod:`.hierarchies` finds the cgroup hierarchies this process may use, and
  :mod:`.cgroups` gives each trial a cgroup in them (v2, or the v1 ``pids``,
  ``freezer`` and ``memory`` controllers): listed, limited, killed as a unit;
- :mod:`.limits` turns a case's ``limits`` into cgroup settings and rlimits,
  and names the limit a trial exceeded (``LIMIT_EXCEEDED``);
- :mod:`.network` runs ``network: none`` trials in a network namespace with
  only loopback;
- :mod:`.watchdog` kills the trials' cgroups when the runner dies, even by
  SIGKILL; :mod:`.leases` lets the next run find what a dead run left;
- :mod:`.trial` puts these together for one trial, :mod:`.run` for a run.

The subreaper and process-group teardown of :mod:`agentic_evals.runner.reaper`
stay underneath as the fallback. See ``docs/isolation.md``.
"""
