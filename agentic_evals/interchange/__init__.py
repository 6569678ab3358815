"""Every Eval Ever 0.2.2: export reports as envelopes, import envelopes from other tools."""
