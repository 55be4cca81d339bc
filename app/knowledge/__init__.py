"""IFRS S1/S2 knowledge: the requirement registry and the official-text parser."""
