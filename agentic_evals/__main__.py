"""``python -m agentic_evals``."""

from agentic_evals.cli import main

main()
