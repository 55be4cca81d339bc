"""Engine and session factory, one per process."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.config import sqlalchemy_url

SessionFactory = async_sessionmaker[AsyncSession]


def create_engine(database_url: str, *, pool_size: int = 10) -> AsyncEngine:
    """An asyncpg engine for `database_url` (any postgresql:// spelling)."""
    return create_async_engine(
        sqlalchemy_url(database_url), pool_size=pool_size, max_overflow=20, pool_pre_ping=True
    )


def create_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
