"""Journey planning: bind requirements to observed UI controls by QID (SPEC section 9)."""
