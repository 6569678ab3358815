"""Judging: trials to cases, cases and claims to readiness, and the report they make.

One derivation serves ``run`` and ``merge`` alike, so a merged report is
judged exactly as a full run of the same cases would be.
"""
