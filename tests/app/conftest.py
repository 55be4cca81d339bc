"""Fixtures shared by the app-level tests."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.supervision.embedded.redis import start_redis


@pytest.fixture
async def private_redis() -> AsyncIterator[tuple[Path, int]]:
    """A Redis server of the test's own (its folder and port), which the test may stop and restart."""
    with tempfile.TemporaryDirectory(prefix="sibyl-redis-", dir="/tmp") as folder:
        server = start_redis(Path(folder))
        yield Path(folder), server.port
        server.stop()
