"""Fleet tools: audit a tree of skills, scaffold first fixtures, plan UI journeys (SPEC 9)."""
