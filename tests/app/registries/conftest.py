"""Registry tests start and end with no snapshot stored (the shared `clean_db` does not know these tables)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

REGISTRY_TABLES = "TRUNCATE registry_snapshots CASCADE"


@pytest.fixture
async def no_registries(engine: AsyncEngine) -> AsyncIterator[None]:
    async with engine.begin() as connection:
        await connection.execute(text(REGISTRY_TABLES))
    yield
    async with engine.begin() as connection:
        await connection.execute(text(REGISTRY_TABLES))
