"""How a `sibyl` command that needs the database gets one: DATABASE_URL, or the embedded server.

Shared by the command groups (`sibyl corpus`, `sibyl evidence`) so each attaches, migrates and
cleans up the same way.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from contextlib import ExitStack

from app.config import Settings
from app.db.migrate import upgrade
from app.db.session import SessionFactory, create_engine, create_session_factory

#: A command's work: given a session factory and the settings, an exit code.
DatabaseAction = Callable[[SessionFactory, Settings], Awaitable[int]]


def run_with_database(settings: Settings, action: DatabaseAction) -> int:
    """Run `action(session_factory, settings)` against DATABASE_URL or the embedded server, migrated.

    An embedded server this call started is stopped when the action ends.
    """
    from app.supervision.database import StartupRefused, provide_database

    with ExitStack() as stack:
        try:
            database_url = provide_database(settings, stack)
        except StartupRefused as exc:
            print(f"sibyl: {exc}", file=sys.stderr, flush=True)
            return 1
        upgrade(database_url)
        return asyncio.run(_run(database_url, settings, action))


async def _run(database_url: str, settings: Settings, action: DatabaseAction) -> int:
    engine = create_engine(database_url, pool_size=2)
    try:
        return await action(create_session_factory(engine), settings)
    finally:
        await engine.dispose()
