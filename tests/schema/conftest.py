"""Fixtures of the schema tests."""

from tests.support.package_worker import worker

__all__ = ["worker"]
