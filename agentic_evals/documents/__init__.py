"""Input documents: one strict load pipeline for every kind, and one finding type.

Strict parse (JSON or YAML), schema, unknown keys, the kind's own rules, the
model, and findings located by file, pointer, line and column. The fixture,
the regression registry and the journey inputs all load through it.
"""
