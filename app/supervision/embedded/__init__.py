"""Embedded Postgres (pgvector) and Redis-compatible servers started from pip wheels.

Used by `sibyl run` and the test suite when no `DATABASE_URL` / `REDIS_URL` is given.
"""
