"""Regression registries: incidents tied to retained guards and fail-before-fix proofs.

``load`` reads ``fixtures/regressions.json`` (``agentic_evals.regressions.v1``);
``audit`` and ``tree`` audit one skill or a whole tree without running
anything (``regressions show`` / ``audit``), with ``established`` as the one
rule of whether a proof holds; ``verify`` proves each ACTIVE record: a
structural proof (``structural``) puts the bug back in a private tree
(``broken``) and judges the guard by its own runs (``guard``,
``fail_to_pass``), a free-form proof (``proof``, ``judge``) is at most weak;
``add`` records a new regression only when its proof verifies.
"""
