"""graphql-transport-ws messages of shared subscription results, serialised once and written once.

A shared execution (`schema.fast_execution.shared_execution`) hands many subscribers the same
result; its `data` is serialised to JSON once, and the handler here splices that JSON into each
subscriber's `next` message instead of encoding the whole message again. The same bytes then go to
the subscribers parked behind this one in its fan-out group (`schema.fast_execution.fanout`), and
each operation runs with its id known to its resolvers, so that the subscription can join a group.

`SharedResultFrames` goes in front of the API's own handler (`schema.transport.ws_guard`), which
keeps every check of the connection and its operations:
`schema.fast_execution.transport_ws_handler` puts it there when the shortcuts are enabled.
It overrides Strawberry's `run_operation` and `send_message`, and writes to the Starlette
`WebSocket` under Strawberry's adapter (`websocket.ws`): see `schema.fast_execution.compat`.
"""

from __future__ import annotations

from typing import Any, cast

from starlette.websockets import WebSocketDisconnect
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws import types as transport_ws
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
)

from schema.fast_execution.fanout import CURRENT_OPERATION, after_send, next_message
from schema.fast_execution.shared_execution import serialised_data, shared_origin


class SharedResultFrames(BaseGraphQLTransportWSHandler[Any, None]):
    """graphql-transport-ws, sending shared results' messages from their cached JSON."""

    async def run_operation(self, operation: Operation[Any, None]) -> None:
        """Run the operation with its id known to its resolvers (`schema.fast_execution.fanout`)."""
        CURRENT_OPERATION.set((self, operation.id))
        await super().run_operation(operation)

    async def send_message(self, message: transport_ws.Message) -> None:
        """Send `message`; a `next` carrying a shared result reuses that result's JSON, and the same
        bytes go to the parked subscribers of its fan-out group (`schema.fast_execution.fanout`)."""
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
