"""GraphQL subscriptions over the graphql-transport-ws protocol, with the protocol's failures
(close codes, refused handshakes, dropped sockets) turned into the client's typed errors."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator, Mapping
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.typing import Subprotocol

from clients.sibyl.errors import (
    AuthenticationError,
    RateLimitedError,
    ServerUnreachable,
    SibylError,
    raise_for_errors,
)
from clients.sibyl.persisted import not_supported, request_body, wants_document

PROTOCOL = Subprotocol("graphql-transport-ws")
#: The server closes a refused `connection_init` with the reason `<CODE>: <message>` (the stable
#: contract, read first) and 4403 (no key or a bad one) or 1013 (over the rate limit); servers with
#: WS_LEGACY_CLOSE_CODES use 4401 (no key) and 4429 (rate limited).
UNAUTHORIZED_CLOSE_CODES = frozenset({4401, 4403})
RATE_LIMITED_CLOSE_CODES = frozenset({1013, 4429})
RETRY_IN = re.compile(r"retry in (\d+(?:\.\d+)?) s")
SUBSCRIPTION_ID = "1"


class ConnectionLost(ServerUnreachable):
    """The WebSocket dropped mid-subscription; resumable subscriptions reconnect on this."""


def _close_error(error: ConnectionClosed) -> SibylError:
    code = error.rcvd.code if error.rcvd else None
    reason = error.rcvd.reason if error.rcvd else ""
    error_code = reason.partition(":")[0]
    if error_code not in {"UNAUTHENTICATED", "RATE_LIMITED"}:
        error_code = (
            "UNAUTHENTICATED"
            if code in UNAUTHORIZED_CLOSE_CODES
            else "RATE_LIMITED"
            if code in RATE_LIMITED_CLOSE_CODES
            else ""
        )
    if error_code == "UNAUTHENTICATED":
        return AuthenticationError(reason or f"Missing or invalid API key (WebSocket closed with {code}).")
    if error_code == "RATE_LIMITED":
        retry_in = RETRY_IN.search(reason)
        return RateLimitedError(
            reason or f"Rate limited (WebSocket closed with {code}).",
            float(retry_in.group(1)) if retry_in else None,
        )
    if code is None:
        return ConnectionLost("The subscription connection dropped (no close frame).")
    detail = f"{code}: {reason}" if reason else str(code)
    return ConnectionLost(f"The subscription connection closed (code {detail}).")


def _handshake_error(error: Exception, url: str) -> SibylError:
    if isinstance(error, InvalidStatus):
        status = error.response.status_code
        if status in (401, 403):
            return AuthenticationError(f"The server refused the WebSocket (HTTP {status}); check the key.")
        return ServerUnreachable(f"the server refused the WebSocket at {url} (HTTP {status})")
    return ServerUnreachable(f"cannot open a WebSocket to {url}: {error}")


async def _receive(ws: ClientConnection) -> dict[str, Any]:
    """The next protocol message, answering pings on the way."""
    while True:
        message = json.loads(await ws.recv())
        if not isinstance(message, dict):
            raise SibylError(f"Unexpected WebSocket message: {message!r}")
        if message.get("type") == "ping":
            await ws.send(json.dumps({"type": "pong"}))
            continue
        return message


async def _initialise(ws: ClientConnection, api_key: str | None) -> None:
    payload = {"authorization": f"Bearer {api_key}"} if api_key else {}
    await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
    ack = await _receive(ws)
    if ack.get("type") != "connection_ack":
        raise SibylError(f"The server did not acknowledge the connection: {ack!r}")


async def _messages(
    ws: ClientConnection, query: str, variables: Mapping[str, Any], persisted: bool
) -> AsyncGenerator[dict[str, Any], None]:
    request = request_body(query, variables, send_document=False, persisted=persisted)
    await ws.send(json.dumps({"id": SUBSCRIPTION_ID, "type": "subscribe", "payload": request}))
    while True:
        message = await _receive(ws)
        kind, payload = message.get("type"), message.get("payload")
        if kind == "complete":
            return
        if kind == "error":
            errors = payload if isinstance(payload, list) else [{"message": str(payload)}]
            if persisted and (wants_document(errors) or not_supported(errors)):
                persisted = not not_supported(errors)  # the server forgot the id: subscribe again
                request = request_body(query, variables, send_document=True, persisted=persisted)
                await ws.send(json.dumps({"id": SUBSCRIPTION_ID, "type": "subscribe", "payload": request}))
                continue
            raise_for_errors(errors)
        if kind == "next" and isinstance(payload, dict):
            raise_for_errors(payload.get("errors") or [])
            yield dict(payload.get("data") or {})


async def subscribe(
    url: str,
    api_key: str | None,
    query: str,
    variables: Mapping[str, Any],
    open_timeout: float,
    persisted: bool = True,
) -> AsyncGenerator[dict[str, Any], None]:
    """Each `next` payload's `data` of one subscription, until the server completes it.

    With `persisted`, the subscription is sent as an automatic persisted query (hash first).

    Raises:
        AuthenticationError: The key was refused (close reason UNAUTHENTICATED or HTTP 401 on the handshake).
        RateLimitedError: The key is over its rate limit (close reason RATE_LIMITED); `retry_after` says when.
        ConnectionLost: The socket dropped; reconnect (with `afterSequence` where the subscription has one).
        ServerUnreachable: The WebSocket could not be opened.
        GraphQLErrors: The server answered the subscription with errors.
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        async with connect(
            url, subprotocols=[PROTOCOL], additional_headers=headers, open_timeout=open_timeout
        ) as ws:
            await _initialise(ws, api_key)
            async for data in _messages(ws, query, variables, persisted):
                yield data
    except ConnectionClosed as error:
        raise _close_error(error) from error
    except (InvalidHandshake, InvalidURI, OSError, TimeoutError) as error:
        raise _handshake_error(error, url) from error
