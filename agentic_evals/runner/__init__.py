"""The runner: the only part of agentic-evals that spawns processes."""
