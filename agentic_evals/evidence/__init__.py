"""What a case's checks can prove: oracles that can fail, readback, live qualification."""
