"""The typed per-request context and the process-wide services it carries."""

from __future__ import annotations

from dataclasses import dataclass

from arq.connections import ArqRedis
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from app.config import Settings
from app.db.session import SessionFactory
from app.embeddings import Embedder
from app.events import EventLog


@dataclass
class Services:
    """Built once per API process (in the lifespan) and shared by every request."""

    settings: Settings
    engine: AsyncEngine
    session_factory: SessionFactory
    arq: ArqRedis  # queues jobs and carries event pub/sub
    event_log: EventLog
    embedder: Embedder  # embeds evidence passages as documents are added


@dataclass
class Context:
    """What resolvers get as `info.context`."""

    services: Services
    request: Request | WebSocket
    response: Response | WebSocket | None = None
