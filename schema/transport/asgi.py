"""The ASGI application: Starlette serving GraphQL (HTTP, multipart uploads, WebSocket subscriptions).

Run with `uvicorn schema.asgi:app` (that module is this one's entry point); `create_app(settings)`
builds one for tests.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import cast

import orjson
from cross_web import AsyncHTTPRequestAdapter, HTTPException
from graphql import OperationType
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.http.base import BaseRequestProtocol
from strawberry.types import ExecutionResult
from strawberry.types.unset import UNSET, UnsetType

from app.config import Settings, get_settings
from app.db.session import Waits, create_engine, create_session_factory
from app.embeddings import create_embedder
from app.events import EventLog
from app.events.hub import EventHub
from app.heap import freeze_startup_heap
from app.llm.client import create_llm_client
from app.log_setup import configure_from_settings, route_uvicorn_logs
from app.ratelimit import RateLimiter
from app.redis_pool import create_redis_pool
from app.tracing import configure_tracing
from app.web.assets import assets_dir
from app.web.graphiql import graphiql_response, graphiql_routes
from app.web.headers import CompressStatic, SecurityHeaders
from app.web.page_images import PageImages
from app.web.static import web_routes
from schema import fast_execution, schema
from schema.context import Context, Services
from schema.errors import MAX_LOGGED_CHARS, ErrorCode, error_json
from schema.limits.document_cache import operation_type
from schema.transport.auth import Authenticator, Refused, admit, key_from_connection_params, log_refusal
from schema.transport.http_edge import BodyLimits, PathGuard
from schema.transport.media_types import (
    MediaType,
    is_request_error,
    response_media_type,
    result_status,
    status_headers,
)
from schema.transport.metrics_endpoint import api_metrics, metrics_routes
from schema.transport.middleware import ApiKeyGuard, UploadGuard, runs_operation
from schema.transport.page_images import page_image_route
from schema.transport.persisted_queries import PersistedQueryProblem, persisted_query
from schema.transport.readiness import readyz_route
from schema.transport.request_checks import decode_json, refuse_unstorable_text
from schema.transport.request_ids import RequestIds
from schema.transport.request_reads import RequestReads
from schema.transport.ws_guard import LegacyWSHandler, TransportWSHandler

UPLOAD_BODY_SLACK_BYTES = 1024 * 1024
SUBSCRIPTION_OVER_HTTP = "Subscriptions run over WebSocket (graphql-transport-ws at /graphql), not HTTP."
NOT_AN_OBJECT = "The request body must be a JSON object."
MULTIPART_MISMATCH = "The multipart request's `map` does not fit its `operations`."

logger = logging.getLogger(__name__)


class SibylGraphQL(GraphQL[Context, None]):
    #: Shared subscription results are sent from their cached JSON when the shortcuts are enabled.
    graphql_transport_ws_handler_class = fast_execution.transport_ws_handler(TransportWSHandler)
    graphql_ws_handler_class = LegacyWSHandler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Strawberry answers a request it cannot use (a body that is not JSON, no query, a mutation
        over GET) in plain text; here it gets the `{"errors": [...]}` shape and an `extensions.code`
        like every other error, in the media type the client asked for
        (`schema.transport.media_types`), so a client can handle it the same way."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope=scope, receive=receive)
        try:
            try:
                response = await self.run(request)
            except HTTPException as exc:
                response = _refusal(exc, response_media_type(request.headers))
            await response(scope, receive, send)
        finally:
            await request.close()  # the uploaded files, however the request ended

    def decode_json(self, data: str | bytes) -> object:
        """JSON the parser cannot take (not UTF-8, nested too deeply) is malformed JSON, refused as such."""
        return decode_json(data)

    async def parse_http_body(
        self, request: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        """The request, refused (400) when its body is JSON but not an object (Strawberry reads it
        with `.get`) or when a string in it holds a NUL or a lone surrogate
        (`schema.transport.request_checks`)."""
        try:
            data = await super().parse_http_body(request)
        except AttributeError as exc:
            raise HTTPException(400, NOT_AN_OBJECT) from exc
        for single in data if isinstance(data, list) else [data]:
            refuse_unstorable_text(single)
        return data

    async def parse_multipart(self, request: AsyncHTTPRequestAdapter) -> dict[str, str]:
        """Strawberry walks `map`'s paths into `operations` unchecked: a path through a number, a
        `map` that is a list, an index out of range raise there; each is the client's mistake."""
        try:
            return await super().parse_multipart(request)
        except (TypeError, AttributeError, ValueError, IndexError) as exc:
            raise HTTPException(400, MULTIPART_MISMATCH) from exc

    def encode_json(self, data: object) -> str:
        """Responses serialised by orjson: a page of 200 claims is ~250 kB of JSON, which the
        standard library takes several times longer to write. Anything orjson refuses (a non-string
        key, an integer beyond 64 bits) goes to the standard encoder as before."""
        try:
            return orjson.dumps(data).decode()
        except TypeError:
            return cast(str, super().encode_json(data))

    def should_render_graphql_ide(self, request: BaseRequestProtocol) -> bool:
        """The GraphiQL page for a browser's plain GET, never for a GET that runs an operation: a
        persisted query sent by its hash alone (`?extensions=`, Apollo's `useGETForHashedQueries`)
        has no `?query=` either, yet asks for data, whatever its `Accept`."""
        return super().should_render_graphql_ide(request) and not runs_operation(request.query_params)

    async def render_graphql_ide(self, request: Request) -> Response:
        """Our GraphiQL page (`app.web.graphiql`): its assets come from this server, not a CDN."""
        return graphiql_response(assets_dir(request.app.state.services.settings))

    async def get_sub_response(self, request: Request | WebSocket) -> Response:
        """The response's headers and status before the result is known, and the media type the
        client asked for (`schema.transport.media_types`), which `create_response` answers in."""
        sub_response = await super().get_sub_response(request)
        sub_response.media_type = response_media_type(request.headers)
        return sub_response

    async def process_result(self, request: Request, result: ExecutionResult) -> GraphQLHTTPResponse:
        """A request that never executed answers `errors` alone: `data` is absent, not null, under
        either media type (the GraphQL spec's request errors)."""
        response = await super().process_result(request, result)
        if is_request_error(result):
            response.pop("data", None)
        return response

    def create_response(
        self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse], sub_response: Response
    ) -> Response:
        """Strawberry's JSON response, labelled with the negotiated media type."""
        response = super().create_response(response_data, sub_response)
        if sub_response.media_type is MediaType.GRAPHQL_RESPONSE:
            response.headers["content-type"] = MediaType.GRAPHQL_RESPONSE.content_type
        return response

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket) -> Context:
        """HTTP requests arrive authenticated by `ApiKeyGuard`; WebSockets in `on_ws_connect`."""
        principal = getattr(request.state, "principal", None) if isinstance(request, Request) else None
        return Context(
            services=request.app.state.services, request=request, response=response, principal=principal
        )

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """Authenticate the connection from its `connection_init` payload and count it against the
        key's rate limit.

        Raises:
            Refused: The protocol handlers (`schema.transport.ws_guard`) close the socket with its close code
                (4403 no key or a bad one, 1013 over the rate limit) and `<code>: <message>`.
        """
        try:
            context.principal = await admit(
                context.services, key_from_connection_params(context.connection_params)
            )
        except Refused as exc:
            log_refusal(exc, "WebSocket connection")
            raise
        return cast(UnsetType, UNSET)

    async def execute_single(  # noqa: PLR0917
        self,
        request: Request,
        request_adapter: AsyncHTTPRequestAdapter,
        sub_response: Response,
        context: Context,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        """Run the operation; under `application/graphql-response+json` its answer's status says
        whether it ran (`schema.transport.media_types.result_status`)."""
        result = await self._resolve_and_run(
            request, request_adapter, sub_response, context, root_value, request_data
        )
        if sub_response.media_type is MediaType.GRAPHQL_RESPONSE:
            sub_response.status_code = result_status(result)
            sub_response.headers.update(status_headers(sub_response.status_code))
        return result

    async def _resolve_and_run(  # noqa: PLR0917
        self,
        request: Request,
        request_adapter: AsyncHTTPRequestAdapter,
        sub_response: Response,
        context: Context,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        """Resolve an automatic persisted query (`schema.transport.persisted_queries`), then run it."""
        try:
            request_data.query = await persisted_query(context, request_data.query, request_data.extensions)
        except PersistedQueryProblem as problem:
            return ExecutionResult(data=None, errors=[problem.error])
        settings = context.services.settings
        kind = operation_type(
            request_data.query,
            request_data.operation_name,
            settings.document_cache_size,
            settings.max_query_tokens,
        )
        if kind is OperationType.SUBSCRIPTION:
            raise HTTPException(400, SUBSCRIPTION_OVER_HTTP)
        if kind is OperationType.QUERY:
            context.reads = RequestReads(context.services.session_factory)
        try:
            return await super().execute_single(
                request, request_adapter, sub_response, context, root_value, request_data
            )
        finally:
            # The read session closes first: it then lets go of its identity map in one step,
            # rather than each of the request's rows removing itself from the map as it is freed.
            reads, context.reads = context.reads, None
            try:
                if reads is not None:
                    await reads.aclose()
            finally:
                # graphql-core's executor keeps the context in a reference cycle; dropping the
                # loaders lets the request's rows be freed at once, not by a full collection.
                context.reset_loaders()


def _refusal(exc: HTTPException, media_type: MediaType) -> Response:
    """Strawberry's refusal as the typed error document, logged in one line (the reason may quote
    the client's input: escaped and cut short)."""
    code = ErrorCode.NOT_FOUND.name if exc.status_code == 404 else ErrorCode.BAD_REQUEST.name
    logger.info("refused HTTP request: %s %s", code, ascii(exc.reason)[1:-1][:MAX_LOGGED_CHARS])
    body = error_json(exc.reason, {"code": code})
    return Response(body, status_code=exc.status_code, media_type=media_type.content_type)


@asynccontextmanager
async def _services(settings: Settings) -> AsyncIterator[Services]:
    engine = create_engine(settings.require_database_url(), waits=_api_waits(settings))
    # Every Redis command of the API (rate limits, persisted queries, caches, queueing, events)
    # gives up after REDIS_COMMAND_TIMEOUT_SECONDS: a hung Redis must not hang requests.
    arq = await create_redis_pool(
        settings.require_redis_url(), command_timeout=settings.redis_command_timeout_seconds
    )
    session_factory = create_session_factory(engine)
    event_log = EventLog(session_factory, arq)
    event_hub = EventHub.following(
        event_log,
        poll_seconds=settings.event_poll_seconds,
        buffer_size=settings.event_hub_buffer,
        max_db_reads=settings.event_hub_db_reads,
    )
    authenticator = Authenticator(
        session_factory,
        allow_unauthenticated=settings.allow_unauthenticated,
        cache_seconds=settings.api_key_cache_seconds,
        failures=RateLimiter(arq, settings.auth_failures_per_minute),
    )
    rate_limiter = RateLimiter(arq, settings.rate_limit_per_minute)
    llm = create_llm_client(settings)
    try:
        yield Services(
            settings,
            engine,
            session_factory,
            arq,
            event_log,
            event_hub,
            create_embedder(settings),
            authenticator,
            rate_limiter,
            llm,
        )
    finally:
        await event_hub.aclose()
        if llm is not None:
            await llm.aclose()
        await arq.aclose()
        await engine.dispose()


def _api_waits(settings: Settings) -> Waits:
    """Bounded Postgres waits for the API: a hung database answers SERVICE_UNAVAILABLE, not never."""
    return Waits(
        statement_seconds=settings.api_statement_timeout_seconds,
        pool_seconds=settings.api_db_pool_timeout_seconds,
        connect_seconds=settings.api_db_connect_timeout_seconds,
    )


def _max_upload_body_bytes(settings: Settings) -> int:
    """Multipart bodies beyond this are cut off as they arrive; those a little over a limit reach the
    resolvers, which answer with typed TOO_LARGE errors."""
    largest = max(settings.max_upload_bytes, settings.evidence_max_document_bytes)
    return largest * 2 + UPLOAD_BODY_SLACK_BYTES


def create_app(settings: Settings | None = None) -> Starlette:
    """A Starlette app serving `/graphql`, `/healthz`, `/readyz`, `/metrics`, the dashboard (`/`, `/web/…`),
    report page images (`/reports/{id}/pages/{n}.png`) and GraphiQL's page and assets (`/graphiql…`)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with _services(settings) as services:
            app.state.services = services
            freeze_startup_heap()
            with api_metrics(services):
                yield

    graphql = SibylGraphQL(
        schema,
        graphql_ide="graphiql" if settings.graphiql else None,
        multipart_uploads_enabled=True,
    )

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    return Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz),
            readyz_route(),  # Postgres, Redis and supervised processes (schema.transport.readiness)
            *metrics_routes(settings),  # Prometheus, no key (schema.transport.metrics_endpoint)
            page_image_route(PageImages(settings)),
            *web_routes(),
            *(graphiql_routes(assets_dir(settings)) if settings.graphiql else []),
        ],
        middleware=[
            Middleware(RequestIds),  # outermost: every answer, refusals included, carries the id
            Middleware(SecurityHeaders),
            Middleware(PathGuard),
            Middleware(
                BodyLimits,
                max_body_bytes=settings.max_request_body_bytes,
                max_upload_bytes=_max_upload_body_bytes(settings),
                timeout_seconds=settings.request_body_timeout_seconds,
            ),
            Middleware(CompressStatic),
            Middleware(ApiKeyGuard),
            Middleware(UploadGuard),
        ],
        lifespan=lifespan,
    )


def __getattr__(name: str) -> Starlette:
    """`schema.asgi:app` for uvicorn, built on first access so importing this module reads no settings.
    The server's logging is set up here, not in `create_app`, which tests also call."""
    if name == "app":
        configure_from_settings(tag="[api] ")
        route_uvicorn_logs()
        configure_tracing("sibyl-api")  # when OTEL_EXPORTER_OTLP_ENDPOINT is set
        return create_app()
    raise AttributeError(name)
