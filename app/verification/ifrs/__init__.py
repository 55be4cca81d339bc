"""IFRS S1/S2 coverage: which requirements a claim meets, and what the report never discloses."""
