"""``compare``: two runs paired by case id, classified, with what checks less (docs/compare.md)."""
