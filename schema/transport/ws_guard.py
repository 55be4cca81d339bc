"""WebSocket connections and every operation sent over them are checked like HTTP requests.

A refused `connection_init` (no key, a bad key, over the rate limit) closes the socket with the
refusal's own close code (`close_code`) and the reason `<code>: <message>` (`schema.errors.CloseCode`);
Strawberry would close every refusal with 4403 "Forbidden", so the protocol handlers below take
the refusal (`schema.transport.auth.Refused`, raised by `SibylGraphQL.on_ws_connect`) themselves.

graphql-transport-ws runs queries and mutations as well as subscriptions, and a connection may
live for hours: so each operation re-checks the connection's key (a revoked key stops working
within the authenticator's cache time) and counts against the key's rate limit. Each operation
also gets fresh DataLoaders (the connection's context outlives any one operation).

A subscription already running sends no operation, so each admitted connection also watches its
key (`KeyHold`): it asks the authenticator again whenever the cached answer expires (one database
lookup per key and API_KEY_CACHE_SECONDS, however many sockets share the key), and once the key is
revoked or deleted it closes the connection with **4403** and the reason `UNAUTHENTICATED: The API
key is no longer valid (revoked or deleted); the connection is closed.` (graphql-ws first gets a
`connection_error` with the same message and `extensions.code`). So a withdrawn key's streams stop
within API_KEY_CACHE_SECONDS of its revocation. A database outage during a re-check closes nothing.

One key may hold MAX_WEBSOCKETS_PER_KEY open connections per API process: the next
`connection_init` is closed, before the key is looked up, with **1013** and the reason
`RATE_LIMITED: This API key already holds N open WebSockets (MAX_WEBSOCKETS_PER_KEY); close one, or
retry in 10 s.` (graphql-ws: a `connection_error` first, with `extensions.retryAfterSeconds`).

A refusal is reported as a validation error: Strawberry sends those to the client as the
operation's errors, whereas an exception raised from an operation hook would end the operation
without telling it why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import cached_property, partial
from typing import Any, Protocol

from graphql import BREAK, GraphQLError, ValidationRule
from starlette.websockets import WebSocket
from strawberry.extensions import SchemaExtension
from strawberry.subscriptions.protocols.graphql_transport_ws import types as transport_ws
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from strawberry.subscriptions.protocols.graphql_ws import types as legacy_ws
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from app.organisations.keys import KEY_LENGTH
from schema.context import Context
from schema.errors import outage_code
from schema.transport.auth import (
    CLIENT_ADDRESS,
    AuthenticationFailed,
    KeyWithdrawn,
    Refused,
    admit,
    client_address,
    key_from_connection_params,
    log_refusal,
    too_many_sockets,
)
from schema.transport.persisted_queries import PersistedQueryProblem, persisted_query

logger = logging.getLogger(__name__)

#: A re-check waits this much past the cached answer's expiry, so that it finds the answer expired.
RECHECK_SLACK_SECONDS = 0.01

Close = Callable[[Refused], Awaitable[None]]


class KeyHold:
    """One connection's hold on its API key: a place among the key's open connections, taken at
    `connection_init`, and once the connection is admitted, a watch that closes it when the key
    stops authenticating. Both end with the connection (`release`)."""

    def __init__(self, context: Context) -> None:
        self._context = context
        self._key: str | None = None
        self._watch: asyncio.Task[None] | None = None

    def take(self, payload: object) -> Refused | None:
        """Take a place for the key of a `connection_init` payload; the refusal when it has none
        left. Connections without a key, or with one no key could be, are left to admission."""
        key = key_from_connection_params(payload) if isinstance(payload, dict) else None
        if key == self._key:
            return None
        self._give_back()
        if self._watch is not None:  # graphql-ws may initialise again, with another key
            self._watch.cancel()
            self._watch = None
        if key is None or len(key) > KEY_LENGTH:
            return None
        services = self._context.services
        limit = services.settings.max_websockets_per_key
        if not services.authenticator.sockets.take(key, limit):
            return too_many_sockets(limit)
        self._key = key
        return None

    def admitted(self, acknowledged: bool, close: Close) -> None:
        """After `connection_init`: watch the key of an acknowledged connection, else let go of it."""
        if not acknowledged:
            self._give_back()
        elif self._key is not None and self._watch is None:
            self._watch = asyncio.create_task(self._watch_key(self._key, close))

    async def release(self) -> None:
        """The connection ends: stop watching, give the place back."""
        watch, self._watch = self._watch, None
        if watch is not None and watch is not asyncio.current_task():
            watch.cancel()
            await asyncio.gather(watch, return_exceptions=True)
        self._give_back()

    def _give_back(self) -> None:
        if self._key is not None:
            self._context.services.authenticator.sockets.give_back(self._key)
            self._key = None

    async def _watch_key(self, key: str, close: Close) -> None:
        """Re-check `key` each time its cached answer expires; close the connection once it fails."""
        authenticator = self._context.services.authenticator
        while True:
            await asyncio.sleep(authenticator.seconds_until_recheck(key) + RECHECK_SLACK_SECONDS)
            try:
                await authenticator.principal(key)
            except AuthenticationFailed:
                refusal = KeyWithdrawn()
                log_refusal(refusal, "open WebSocket")
                await close(refusal)
                return
            except Exception as exc:  # the connection stays open, its key checked again later
                outage = outage_code(exc)
                if outage is None:
                    logger.error("re-checking an open WebSocket's key failed", exc_info=exc)
                else:
                    logger.warning("%s while re-checking an open WebSocket's key: %r", outage.name, exc)


@contextmanager
def _admitting(context: Context) -> Iterator[None]:
    """`admit` counts failed authentications against the connection's address."""
    token = CLIENT_ADDRESS.set(client_address(context.request.scope))
    try:
        yield
    finally:
        CLIENT_ADDRESS.reset(token)


def close_code(context: Context, refusal: Refused) -> int:
    """The code that closes a refused connection: the protocol's, or for the deprecation period the
    one Sibyl used before (WS_LEGACY_CLOSE_CODES)."""
    if context.services.settings.ws_legacy_close_codes:
        return refusal.legacy_close_code
    return refusal.close_code


class _GuardedHandler(Protocol):
    """What `init_connection` needs of a protocol handler."""

    context: Context

    @property
    def hold(self) -> KeyHold: ...

    async def refuse(self, refusal: Refused) -> None: ...


async def init_connection(
    handler: _GuardedHandler,
    payload: object,
    init: Callable[[], Awaitable[None]],
    acknowledged: Callable[[], bool],
) -> None:
    """Admit a `connection_init` on either protocol: the key's socket cap first, then `init` (the
    protocol's own handling, which authenticates the key) with failures counted against the
    client's address; an acknowledged connection's key is then watched for revocation."""
    refusal = handler.hold.take(payload)
    if refusal is not None:
        log_refusal(refusal, "WebSocket connection")
        await handler.refuse(refusal)
        return
    try:
        with _admitting(handler.context):
            await init()
    except Refused as refused:
        await handler.refuse(refused)
    handler.hold.admitted(acknowledged(), handler.refuse)


class TransportWSHandler(BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws, closing a refused connection with the refusal's code and reason."""

    @cached_property
    def hold(self) -> KeyHold:
        return KeyHold(self.context)

    async def handle_connection_init(self, message: transport_ws.ConnectionInitMessage) -> None:
        init = partial(super().handle_connection_init, message)
        await init_connection(self, message.get("payload"), init, lambda: self.connection_acknowledged)

    async def refuse(self, refusal: Refused) -> None:
        """Close the connection with the refusal's code and `<code>: <message>`."""
        await self.websocket.close(code=close_code(self.context, refusal), reason=refusal.close_reason)

    async def shutdown(self) -> None:
        await self.hold.release()
        await super().shutdown()

    async def handle_subscribe(self, message: transport_ws.SubscribeMessage) -> None:
        """Resolve an automatic persisted query (`schema.transport.persisted_queries`) before subscribing."""
        payload = message.get("payload")
        if self.connection_acknowledged and isinstance(payload, dict):
            try:
                query = await persisted_query(self.context, payload.get("query"), payload.get("extensions"))
            except PersistedQueryProblem as problem:
                error: transport_ws.ErrorMessage = {
                    "id": message["id"],
                    "type": "error",
                    "payload": [problem.error.formatted],
                }
                await self.send_message(error)
                return
            if query is not None:
                payload["query"] = query
        await super().handle_subscribe(message)


class LegacyWSHandler(BaseGraphQLWSHandler[Context, None]):
    """The older graphql-ws protocol: a refusal is a typed `connection_error`, then the same close."""

    @cached_property
    def hold(self) -> KeyHold:
        return KeyHold(self.context)

    async def handle_connection_init(self, message: legacy_ws.ConnectionInitMessage) -> None:
        init = partial(super().handle_connection_init, message)
        await init_connection(self, message.get("payload"), init, lambda: self.connection_acknowledged)

    async def refuse(self, refusal: Refused) -> None:
        """A `connection_error` with the message and extensions, then the refusal's close."""
        error: legacy_ws.ConnectionErrorMessage = {
            "type": "connection_error",
            "payload": {"message": str(refusal), "extensions": refusal.extensions},
        }
        await self.send_message(error)
        await self.websocket.close(code=close_code(self.context, refusal), reason=refusal.close_reason)

    async def cleanup(self) -> None:
        await self.hold.release()
        await super().cleanup()


class WebSocketOperationGuard(SchemaExtension):
    refusal: GraphQLError | None = None

    async def on_operation(self) -> AsyncIterator[None]:
        context = self.execution_context.context
        if isinstance(context, Context) and isinstance(context.request, WebSocket):
            self.refusal = await _refusal(context)
        yield

    def on_validate(self) -> Iterator[None]:
        if self.refusal is not None:
            context = self.execution_context
            if context.pre_execution_errors is None:  # nothing validated the document yet
                context.validation_rules = (*context.validation_rules, _refusing(self.refusal))
            else:  # validated (from the document cache): the refusal joins whatever was found
                context.pre_execution_errors = [self.refusal, *context.pre_execution_errors]
        yield


async def _refusal(context: Context) -> GraphQLError | None:
    """Why the operation may not run (bad key, over the rate limit), or None to admit it."""
    try:
        context.principal = await admit(
            context.services,
            key_from_connection_params(context.connection_params),
            client_address(context.request.scope),
        )
    except Refused as exc:
        return GraphQLError(str(exc), extensions=exc.extensions)
    context.reset_loaders()
    return None


def _refusing(error: GraphQLError) -> type[ValidationRule]:
    class Refusal(ValidationRule):
        def enter_document(self, *_args: Any) -> Any:
            self.report_error(error)
            return BREAK

    return Refusal
