"""Regression registries: incidents tied to retained guards and fail-before-fix proofs.

``load`` reads ``fixtures/regressions.json`` (``agentic_evals.regressions.v1``);
``audit`` and ``tree`` audit one skill or a whole tree without running
anything (``regressions show`` / ``audit``); ``verify`` re-runs every ACTIVE
proof and requires that it fails for the guard's reason (``regressions verify``).
"""
