"""Built-in investigators of the specialist agents (each an `Investigator`, see app/agents/runtime.py)."""
