"""The typed per-request context and the process-wide services it carries."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arq.connections import ArqRedis
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from app.config import Settings
from app.db.session import SessionFactory
from app.embeddings import Embedder
from app.events import EventLog
from app.events.hub import EventHub
from app.llm.client import LLMClient
from app.metrics.labels import FirstCome
from app.organisations import Principal
from app.ratelimit import RateLimiter
from schema.verdicts_first import VerdictsFirst

if TYPE_CHECKING:
    from schema.loaders import Loaders
    from schema.transport.auth import Authenticator
    from schema.transport.request_reads import ReadSessions, RequestReads


@dataclass
class Services:
    """Built once per API process (in the lifespan) and shared by every request."""

    settings: Settings
    engine: AsyncEngine
    session_factory: SessionFactory
    arq: ArqRedis  # queues jobs and carries event pub/sub
    event_log: EventLog  # appends: mutations record what they start
    event_hub: EventHub  # follows: subscriptions read the streams through it
    embedder: Embedder  # embeds evidence passages as documents are added
    authenticator: Authenticator
    rate_limiter: RateLimiter
    llm: LLMClient | None  # answers `askReport` questions (None: extractive answers)
    #: The operation names this process's metrics label operations with (`schema.operation_metrics`).
    operation_names: FirstCome = field(default_factory=FirstCome)


@dataclass
class Context:
    """What resolvers get as `info.context`.

    `principal` is set before any resolver runs: by the HTTP guard for queries and mutations, and
    when a WebSocket connection is initialised for subscriptions. A WebSocket connection has one
    context for all its operations (Strawberry makes it when the connection opens).
    """

    services: Services
    request: Request | WebSocket
    response: Response | WebSocket | None = None
    principal: Principal | None = None
    connection_params: dict[str, Any] | None = None
    #: The shared read session of an HTTP query (`schema.transport.request_reads`); None: a session per read.
    reads: RequestReads | None = None
    #: The connection's `verdictIssued` streams, which a run's last event on `analysisEvents` waits for.
    verdicts_first: VerdictsFirst = field(default_factory=VerdictsFirst, repr=False)
    _loaders: Loaders | None = field(default=None, repr=False)

    @property
    def organisation_id(self) -> uuid.UUID:
        """The caller's organisation; every read and write is confined to it."""
        if self.principal is None:
            raise RuntimeError("no principal on the context (the authentication guard did not run)")
        return self.principal.organisation_id

    @property
    def loaders(self) -> Loaders:
        """This request's DataLoaders (fresh per request, so nothing is cached across callers)."""
        from schema.loaders import Loaders

        if self._loaders is None:
            self._loaders = Loaders(self.read_sessions, self.organisation_id)
        return self._loaders

    @property
    def read_sessions(self) -> ReadSessions:
        """Where reads get their session: `async with info.context.read_sessions() as session:`.

        The operation's shared one during an HTTP query, else a new session each time. (The shared
        one's own method, not one of this object's: loaders keep it, and a loader referring back to
        the context would make a reference cycle; see `schema.loaders`.)
        """
        return self.reads.session if self.reads is not None else self.services.session_factory

    def reset_loaders(self) -> None:
        """Start a new operation's cache (a WebSocket's context serves many operations)."""
        self._loaders = None
