"""Claim-level readiness: evidence classes, live qualification, verdicts (SPEC 4 to 6).

Kept free of imports so that the report model can use :mod:`.models` cheaply;
the entry points are :func:`agentic_evals.claims.readiness.capability_readiness`
and :func:`agentic_evals.claims.qualification.qualify_cases`.
"""
