"""Benchmarks for Sibyl; run each with `.venv/bin/python -m bench.<name>` from the project root."""
