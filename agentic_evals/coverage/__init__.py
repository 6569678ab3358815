"""Seam coverage (SPEC 7): which seams have guards that can fail, in which classes. Static.

Entry points: :func:`agentic_evals.coverage.show.show_coverage` (one skill)
and :func:`agentic_evals.coverage.audit.audit_coverage` (a tree of skills).
Kept free of imports so that the CLI's ``--help`` stays fast.
"""
