"""How a command samples its inputs: fresh per run, or the same every run.

A case is non-deterministic when it samples fresh inputs per run: it names
``--samples N``, passes ``--seed`` a per-run value, or uses ``$RANDOM``; a
fixed ``--seed 7`` makes it deterministic. ``$`` expands only inside a shell
script: an argv word ``$RANDOM`` run without a shell is the same string
every run, so it does not count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agentic_evals.commands.analysis import MENTION_PROGRAMS, CommandAnalysis, program_name

_PER_RUN = re.compile(
    r"\$\(|`|\$\$|\$\{?(?:RANDOM|SRANDOM|AGENTIC_EVALS_RUN_ID|EPOCHSECONDS|EPOCHREALTIME|BASHPID)\b"
)
_RANDOM = re.compile(r"\$\{?S?RANDOM\b")


@dataclass
class Sampling:
    """How a case's command samples its inputs."""

    samples: list[str] = field(default_factory=list)
    """Values given to ``--samples``."""
    fresh: list[str] = field(default_factory=list)
    """Evidence of per-run inputs, e.g. ``--seed $RANDOM``."""
    fixed_seeds: list[str] = field(default_factory=list)
    """``--seed`` values that are the same every run (literals, unexpanded words)."""
    unexpanded: list[str] = field(default_factory=list)
    """Per-run-looking words passed without a shell (never expanded)."""

    @property
    def nondeterministic(self) -> bool:
        """The case samples fresh inputs per run."""
        return bool(self.samples or self.fresh) and not self.fixed_seeds

    @property
    def largest_samples(self) -> int | None:
        """The largest literal ``--samples`` value, if any."""
        literal = [int(value) for value in self.samples if value.isdigit()]
        return max(literal) if literal else None


def sampling(analysis: CommandAnalysis) -> Sampling:
    """Read how a command samples its inputs from its simple commands."""
    found = Sampling()
    for cmd in analysis.commands:
        if cmd.unparsed or program_name(cmd.argv[0]) in MENTION_PROGRAMS:
            continue
        words = list(cmd.argv[1:])
        for index, word in enumerate(words):
            option, has_value, value = word.partition("=")
            if not has_value:
                value = words[index + 1] if index + 1 < len(words) else ""
            per_run = cmd.in_shell and bool(_PER_RUN.search(value))
            if option == "--samples":
                found.samples.append(value)
            elif option == "--seed":
                # Anything but a per-run expansion is the same key every run.
                (found.fresh if per_run else found.fixed_seeds).append(f"--seed {value}")
            if cmd.in_shell and _RANDOM.search(word):
                found.fresh.append(word)
            elif not cmd.in_shell and _PER_RUN.search(word):
                found.unexpanded.append(word)
    return found
