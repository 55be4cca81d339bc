"""Public registries Sibyl checks claims against, imported from their downloads.

One parser module per registry (`sbti`, `net_zero_tracker`, `uk_ets`, `epa_ghgrp`, `nger`) turns
its file(s) into typed records (`records`); `importer` stores a snapshot in one transaction;
`cli` is `sibyl registry import|list`. Registries are public: every organisation shares them.
"""
