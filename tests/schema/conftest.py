"""Fixtures of the schema tests.

The schema tests run twice in `make test`: with the executor shortcuts (`schema.fast_execution`)
and with FAST_EXECUTION=false, where every answer must be the same. Tests of a behaviour that only
a shortcut has (subscribers parked behind a fan-out leader) are skipped when the shortcuts are off.
"""

from __future__ import annotations

import pytest

from schema import fast_execution
from tests.support.package_worker import worker

__all__ = ["worker"]

#: Test modules about what only the shortcuts do.
NEEDS_FAST_EXECUTION = frozenset({"test_fanout.py"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if fast_execution.enabled():
        return
    skip = pytest.mark.skip(reason="fan-out parking is one of the shortcuts FAST_EXECUTION turns off")
    for item in items:
        if item.path.name in NEEDS_FAST_EXECUTION:
            item.add_marker(skip)
