"""Alembic environment: async engine on the app's DATABASE_URL (or `sqlalchemy.url` if given)."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db.base import Base
from app.db.models import Report  # noqa: F401  (registers every model)
from app.db.session import create_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata

#: Tables LangGraph's Postgres checkpointer creates and migrates itself in the same database;
#: autogenerate (and `alembic check`) must neither drop them nor report them as drift.
FOREIGN_TABLES = frozenset({"checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations"})


def _include_name(name: str | None, type_: str, parent_names: object) -> bool:
    return not (type_ == "table" and name in FOREIGN_TABLES)


def _database_url() -> str:
    return config.attributes.get("database_url") or get_settings().require_database_url()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection, target_metadata=target_metadata, compare_type=True, include_name=_include_name
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_database_url(), pool_size=1)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=_database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(_run_async())
