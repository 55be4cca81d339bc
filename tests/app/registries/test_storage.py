"""Migration 0012 goes down as cleanly as it comes up, and a snapshot's records go with it."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from alembic import command
from sqlalchemy import text

from app.db.migrate import alembic_config, upgrade
from app.db.session import create_engine
from tests.support.services import RunningServices

DATABASE = "sibyl_migration_0012"


async def test_registry_tables_come_and_go(services: RunningServices) -> None:
    if services.postgres is None:
        pytest.skip("needs the embedded Postgres to create a scratch database")
    services.postgres.drop_database(DATABASE)
    services.postgres.ensure_database(DATABASE)
    url = services.postgres.url(DATABASE)
    try:
        await asyncio.to_thread(upgrade, url, "0012")
        engine = create_engine(url)
        snapshot = uuid.uuid4()
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO registry_snapshots (id, kind, publisher, file_name, sha256, record_count) "
                    "VALUES (:id, 'nger', 'p', 'f.csv', :sha, 1)"
                ),
                {"id": snapshot, "sha": "0" * 64},
            )
            await connection.execute(
                text(
                    "INSERT INTO registry_records (snapshot_id, record_key, entity_name, normalised_name) "
                    "VALUES (:id, 'k', 'Karoo Ltd', 'karoo')"
                ),
                {"id": snapshot},
            )
            await connection.execute(text("DELETE FROM registry_snapshots"))
            left = await connection.scalar(text("SELECT count(*) FROM registry_records"))
        await engine.dispose()
        await asyncio.to_thread(command.downgrade, alembic_config(url), "0011")
        engine = create_engine(url)
        async with engine.connect() as connection:
            tables = await connection.scalar(
                text(
                    "SELECT count(*) FROM pg_tables "
                    "WHERE tablename IN ('registry_snapshots', 'registry_records')"
                )
            )
        await engine.dispose()
        assert (left, tables) == (0, 0)
    finally:
        services.postgres.drop_database(DATABASE)
