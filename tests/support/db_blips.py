"""Real database blips for tests: Postgres ends other connections as it does when it restarts.

`pg_terminate_backend` makes each chosen backend send FATAL 57P01 (admin_shutdown) and close its
socket, exactly what a client meets on a pooled connection after a postmaster restart; nothing in
the client libraries is mocked.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

OTHER_CLIENTS = "datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()"


#: How long `terminate_backends` waits for each backend to exit (and so close its socket).
EXIT_WAIT_MS = 30_000


async def terminate_backends(engine: AsyncEngine, where: str = "true") -> int:
    """End every other client connection to the test database matching `where`; returns how many.

    Returns once those backends have exited and their sockets are closed: `pg_terminate_backend`
    with a timeout waits for that, where a fixed sleep may be too short on a loaded machine.
    """
    async with engine.connect() as connection:
        killed = await connection.scalar(
            text(
                f"SELECT count(pg_terminate_backend(pid, {EXIT_WAIT_MS})) FROM pg_stat_activity "
                f"WHERE {OTHER_CLIENTS} AND ({where})"
            )
        )
        await connection.commit()
    return int(killed or 0)


async def live_backends(engine: AsyncEngine, where: str = "true") -> int:
    async with engine.connect() as connection:
        return int(
            await connection.scalar(
                text(f"SELECT count(*) FROM pg_stat_activity WHERE {OTHER_CLIENTS} AND ({where})")
            )
            or 0
        )
