"""`GET /metrics`: the API process's Prometheus metrics (`app.metrics`), without an API key.

It is not a GraphQL request, so `ApiKeyGuard` neither authenticates nor rate-limits it; what it
shows carries no organisation's content (see `app.metrics`), and one rendering serves every caller
for a second (`CachedExposition`), so a flood of calls costs little. With METRICS_PORT set it is
served on that port instead (at METRICS_HOST), and the API's own port answers it 404.

While the API runs, its Redis pool (the job queue's depth), its database pool and its DATA_DIR
(the restarts of `sibyl run`) are attached to the collectors that read them at scrape time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.config import Settings
from app.metrics import db_pools, queue_depth
from app.metrics.exposition import TEXT_FORMAT, CachedExposition, listening
from app.supervision import restart_metrics
from schema.context import Services


def metrics_routes(settings: Settings) -> list[Route]:
    """`/metrics` on the API's port, unless metrics are off or served on a port of their own."""
    if not settings.metrics_enabled or settings.metrics_port:
        return []
    exposition = CachedExposition()

    async def metrics(request: Request) -> Response:
        return Response(await exposition(), media_type=TEXT_FORMAT, headers={"Cache-Control": "no-store"})

    return [Route("/metrics", metrics, methods=["GET"])]


@contextmanager
def api_metrics(services: Services) -> Iterator[None]:
    """While the block runs (the API's lifespan): what the scrape-time collectors read, and the
    listener of METRICS_PORT when it is set."""
    settings = services.settings
    with ExitStack() as stack:
        if settings.metrics_enabled:
            loop = asyncio.get_running_loop()
            stack.enter_context(queue_depth.SOURCES.attached(queue_depth.QueueSource(services.arq, loop)))
            stack.enter_context(db_pools.SOURCES.attached(("api", services.engine)))
            stack.enter_context(restart_metrics.SOURCES.attached(settings.data_dir))
            if settings.metrics_port:
                stack.enter_context(listening(settings.metrics_port, settings.metrics_host))
        yield
