"""WebSocket connections and every operation sent over them are checked like HTTP requests.

A refused `connection_init` (no key, a bad key, over the rate limit) closes the socket with the
refusal's own close code and the reason `<code>: <message>` (`schema.errors.CloseCode`);
Strawberry would close every refusal with 4403 "Forbidden", so the protocol handlers below take
the refusal (`schema.auth.Refused`, raised by `SibylGraphQL.on_ws_connect`) themselves.

graphql-transport-ws runs queries and mutations as well as subscriptions, and a connection may
live for hours: so each operation re-checks the connection's key (a revoked key stops working
within the authenticator's cache time) and counts against the key's rate limit. Each operation
also gets fresh DataLoaders (the connection's context outlives any one operation).

A refusal is reported as a validation error: Strawberry sends those to the client as the
operation's errors, whereas an exception raised from an operation hook would end the operation
without telling it why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from graphql import BREAK, GraphQLError, ValidationRule
from starlette.websockets import WebSocket
from strawberry.extensions import SchemaExtension
from strawberry.subscriptions.protocols.graphql_transport_ws import types as transport_ws
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from strawberry.subscriptions.protocols.graphql_ws import types as legacy_ws
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from schema.auth import Refused, admit, key_from_connection_params
from schema.context import Context


class TransportWSHandler(BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws, closing a refused connection with the refusal's code and reason."""

    async def handle_connection_init(self, message: transport_ws.ConnectionInitMessage) -> None:
        try:
            await super().handle_connection_init(message)
        except Refused as refusal:
            await self.websocket.close(code=refusal.close_code, reason=refusal.close_reason)


class LegacyWSHandler(BaseGraphQLWSHandler[Context, None]):
    """The older graphql-ws protocol: a refusal is a typed `connection_error`, then the same close."""

    async def handle_connection_init(self, message: legacy_ws.ConnectionInitMessage) -> None:
        try:
            await super().handle_connection_init(message)
        except Refused as refusal:
            error: legacy_ws.ConnectionErrorMessage = {
                "type": "connection_error",
                "payload": {"message": str(refusal), "extensions": refusal.extensions},
            }
            await self.send_message(error)
            await self.websocket.close(code=refusal.close_code, reason=refusal.close_reason)


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
            context.validation_rules = (*context.validation_rules, _refusing(self.refusal))
        yield


async def _refusal(context: Context) -> GraphQLError | None:
    """Why the operation may not run (bad key, over the rate limit), or None to admit it."""
    try:
        context.principal = await admit(
            context.services, key_from_connection_params(context.connection_params)
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
