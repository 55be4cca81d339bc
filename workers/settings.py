"""ARQ `WorkerSettings`, built from the app settings (`arq workers.settings.WorkerSettings`)."""

from __future__ import annotations

from typing import Any

from arq import func
from arq.connections import RedisSettings

from app.config import Settings, get_settings
from app.db.session import create_engine, create_session_factory
from app.events import EventLog
from app.queue import PARSE_REPORT_JOB
from workers.jobs import parse_report
from workers.recovery import requeue_unfinished_parses


async def startup(ctx: dict[str, Any]) -> None:
    """Open the shared clients, then run the recovery sweep.

    Events are published through ARQ's own Redis pool (`ctx["redis"]`); a second pool would only
    duplicate connections to the same server.
    """
    settings: Settings = ctx.get("settings") or get_settings()
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    ctx.update(
        settings=settings,
        engine=engine,
        session_factory=session_factory,
        event_log=EventLog(session_factory, ctx["redis"], poll_seconds=settings.event_poll_seconds),
    )
    await requeue_unfinished_parses(session_factory, ctx["redis"])


async def shutdown(ctx: dict[str, Any]) -> None:
    await ctx["engine"].dispose()


def worker_settings(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `arq.Worker` (tests pass them directly)."""
    return {
        "functions": [func(parse_report, name=PARSE_REPORT_JOB, timeout=settings.parse_job_timeout_seconds)],
        "on_startup": startup,
        "on_shutdown": shutdown,
        "redis_settings": RedisSettings.from_dsn(settings.redis_url or "redis://localhost:6379/0"),
        "max_jobs": settings.worker_max_jobs,
        "ctx": {"settings": settings},
        "handle_signals": True,
        "poll_delay": 0.2,
    }


#: Class form for the `arq` command line, filled from the environment at import.
WorkerSettings = type("WorkerSettings", (), worker_settings(get_settings()))
