"""Skill trees (SPEC 9): audit a tree of skills, scaffold first fixtures, plan UI journeys."""
