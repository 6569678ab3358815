"""The fixture contract (SPEC section 1): models, schema, load-time rules and the loader."""
