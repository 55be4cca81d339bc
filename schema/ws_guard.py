"""WebSocket connections and every operation sent over them are checked like HTTP requests.

A refused `connection_init` (no key, a bad key, over the rate limit) closes the socket with the
refusal's own close code and the reason `<code>: <message>` (`schema.errors.CloseCode`);
Strawberry would close every refusal with 4403 "Forbidden", so the protocol handlers below take
the refusal (`schema.auth.Refused`, raised by `SibylGraphQL.on_ws_connect`) themselves.

graphql-transport-ws runs queries and mutations as well as subscriptions, and a connection may
live for hours: so each operation re-checks the connection's key (a revoked key stops working
within the authenticator's cache time) and counts against the key's rate limit. Each operation
also gets fresh DataLoaders (the connection's context outlives any one operation).

Results of shared subscription executions (`schema.shared_execution`) are serialised once for all
their subscribers: the transport handler splices the cached JSON of `data` into each `next` message.

A refusal is reported as a validation error: Strawberry sends those to the client as the
operation's errors, whereas an exception raised from an operation hook would end the operation
without telling it why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

from graphql import BREAK, GraphQLError, ValidationRule
from starlette.websockets import WebSocket, WebSocketDisconnect
from strawberry.extensions import SchemaExtension
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws import types as transport_ws
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
)
from strawberry.subscriptions.protocols.graphql_ws import types as legacy_ws
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from schema.auth import Refused, admit, key_from_connection_params
from schema.context import Context
from schema.fanout import CURRENT_OPERATION, after_send, next_message
from schema.persisted_queries import PersistedQueryProblem, persisted_query
from schema.shared_execution import serialised_data, shared_origin


class TransportWSHandler(BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws, closing a refused connection with the refusal's code and reason."""

    async def handle_connection_init(self, message: transport_ws.ConnectionInitMessage) -> None:
        try:
            await super().handle_connection_init(message)
        except Refused as refusal:
            await self.websocket.close(code=refusal.close_code, reason=refusal.close_reason)

    async def handle_subscribe(self, message: transport_ws.SubscribeMessage) -> None:
        """Resolve an automatic persisted query (`schema.persisted_queries`) before subscribing."""
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

    async def run_operation(self, operation: Operation[Context, None]) -> None:
        """Run the operation with its id known to its resolvers (`schema.fanout`)."""
        CURRENT_OPERATION.set((self, operation.id))
        await super().run_operation(operation)

    async def send_message(self, message: transport_ws.Message) -> None:
        """Send `message`; a `next` carrying a shared result reuses that result's JSON, and the same
        bytes go to the parked subscribers of its fan-out group (`schema.fanout`)."""
        shared = _shared_next(cast(dict[str, Any], message))
        if shared is None:
            await super().send_message(message)
            return
        operation_id, data = shared
        try:
            await self.websocket.ws.send_text(next_message(operation_id, data))  # type: ignore[attr-defined]
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc
        origin = shared_origin(cast(dict[str, Any], message)["payload"]["data"])
        if origin is not None:
            scope, key = origin
            if isinstance(key, tuple) and len(key) == 3 and key[0] == "StreamEvent":
                after_send(self, operation_id, scope, str(key[1]), int(key[2]), data)


def _shared_next(message: dict[str, Any]) -> tuple[str, str] | None:
    """(operation id, JSON of `data`) of a `next` message carrying a shared result, else None."""
    if message.get("type") != "next":
        return None
    payload = message.get("payload")
    if not isinstance(payload, dict) or payload.keys() != {"data"}:
        return None
    data = serialised_data(payload["data"])
    return None if data is None else (str(message["id"]), data)


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
            if context.pre_execution_errors is None:  # nothing validated the document yet
                context.validation_rules = (*context.validation_rules, _refusing(self.refusal))
            else:  # validated (from the document cache): the refusal joins whatever was found
                context.pre_execution_errors = [self.refusal, *context.pre_execution_errors]
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
