"""The run history: every recorded report, indexed in SQLite or PostgreSQL.

Reports stay the source of truth; the history is an index of them that
``history import`` rebuilds. One schema, one set of queries, two backends.
"""
