"""ARQ `WorkerSettings`, built from the app settings (`arq workers.settings.WorkerSettings`)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

from arq import cron, func
from arq.cron import CronJob
from redis.asyncio import Redis

from app.config import Settings, get_settings
from app.db.session import create_engine, create_session_factory
from app.embeddings import create_embedder
from app.events import EventLog
from app.knowledge.search import KnowledgeSearch
from app.knowledge.store import index_knowledge_base
from app.llm import create_llm_client
from app.metrics.worker import job_hooks, worker_metrics
from app.pipeline.runner import PipelineRunner, open_checkpointer
from app.pipeline.runtime import PipelineDeps
from app.pipeline.specialists import load_investigators
from app.queue import PARSE_REPORT_JOB, RUN_PIPELINE_JOB
from app.services.job_owners import report_owner, run_owner
from workers.fair import dispatching, in_turn
from workers.jobs import PARSE_JOB_TRIES, parse_report, run_pipeline, sweep_abandoned_analyses
from workers.recovery import requeue_unfinished_parses, resume_abandoned_analyses
from workers.request_context import carrying_request_context
from workers.resilience import retrying_redis_settings


async def startup(ctx: dict[str, Any]) -> None:
    """Open the shared clients (database, LLM, checkpointer), start letting waiting jobs through
    (`workers.fair`), then run the recovery sweep.

    Events are published through a Redis client of their own that does not retry: ARQ's pool
    retries each command for seconds when Redis is down, while a PUBLISH that fails is only logged
    (Postgres has the event) and must not hold up the analysis.
    """
    settings: Settings = ctx.get("settings") or get_settings()
    exit_stack = AsyncExitStack()
    engine = create_engine(settings.require_database_url())
    exit_stack.push_async_callback(engine.dispose)
    exit_stack.enter_context(worker_metrics(settings, engine))  # WORKER_METRICS_PORT (app.metrics.worker)
    session_factory = create_session_factory(engine)
    events_redis = Redis.from_url(redis_url(settings), socket_connect_timeout=1, socket_timeout=5)
    exit_stack.push_async_callback(events_redis.aclose)
    event_log = EventLog(session_factory, events_redis)
    llm = create_llm_client(settings)
    if llm is not None:
        exit_stack.push_async_callback(llm.aclose)
    checkpointer = await exit_stack.enter_async_context(open_checkpointer(settings.require_database_url()))
    embedder = create_embedder(settings)
    await index_knowledge_base(session_factory, embedder)
    deps = PipelineDeps(
        settings=settings,
        session_factory=session_factory,
        event_log=event_log,
        llm=llm,
        investigators=load_investigators(settings),
        embedder=embedder,
        knowledge=KnowledgeSearch(session_factory, embedder),
    )
    ctx.update(
        settings=settings,
        exit_stack=exit_stack,
        session_factory=session_factory,
        event_log=event_log,
        pipeline_runner=PipelineRunner(deps, checkpointer),
    )
    await exit_stack.enter_async_context(dispatching(ctx["redis"], settings.org_max_running_jobs))
    await requeue_unfinished_parses(session_factory, ctx["redis"])
    await resume_abandoned_analyses(
        session_factory, event_log, ctx["redis"], max_attempts=settings.max_job_attempts
    )


async def shutdown(ctx: dict[str, Any]) -> None:
    await ctx["exit_stack"].aclose()


def sweep_schedule(settings: Settings) -> list[CronJob]:
    """The periodic sweep (analyses to resume, stalled parses), `ANALYSIS_SWEEP_SECONDS` apart
    (none when 0)."""
    every = settings.analysis_sweep_seconds
    if not every:
        return []
    return [cron(sweep_abandoned_analyses, second=set(range(0, 60, every)), unique=True)]


def redis_url(settings: Settings) -> str:
    """The worker's Redis: `REDIS_URL`, or a local default."""
    return settings.redis_url or "redis://localhost:6379/0"


def worker_settings(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `arq.Worker` (tests pass them directly)."""
    return {
        "functions": [
            func(
                carrying_request_context(in_turn(parse_report, report_owner), PARSE_REPORT_JOB),
                name=PARSE_REPORT_JOB,
                timeout=settings.parse_job_timeout_seconds,
                max_tries=PARSE_JOB_TRIES,
            ),
            func(
                carrying_request_context(in_turn(run_pipeline, run_owner), RUN_PIPELINE_JOB),
                name=RUN_PIPELINE_JOB,
                timeout=settings.pipeline_job_timeout_seconds,
                max_tries=50,
            ),
        ],
        "cron_jobs": sweep_schedule(settings),
        "on_startup": startup,
        "on_shutdown": shutdown,
        "redis_settings": retrying_redis_settings(redis_url(settings)),
        "max_jobs": settings.worker_max_jobs,
        "ctx": {"settings": settings},
        "handle_signals": True,
        "poll_delay": 0.2,
        **job_hooks(settings),  # each job run timed and counted for the metrics
    }


#: Class form for the `arq` command line, filled from the environment at import.
WorkerSettings = type("WorkerSettings", (), worker_settings(get_settings()))
