"""Run reports: the versioned model, the JSON writer and the terminal summary."""
