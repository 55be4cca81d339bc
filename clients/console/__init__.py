"""The `sibyl` client commands' parts: the analyze flow, live progress, and result rendering."""
