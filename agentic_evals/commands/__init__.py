"""Reading a command structurally: argv, ``sh -c`` scripts, inline programs, entrypoints.

The load-time gates, live qualification and seam coverage all read a case's
command through :func:`agentic_evals.commands.analysis.analyze`.
"""
