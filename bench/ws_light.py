"""A minimal graphql-transport-ws subscriber for benchmarks: thousands of them in one process.

The `websockets` asyncio client costs tens of microseconds per message (a task, futures and a
queue on top of parsing; `python -m bench.ws_light` compares the parsing and decoding alone), so a
bench process holding 1,000 of them would measure its own clients rather than the server. This one
is an `asyncio.Protocol`: an HTTP/1.1 upgrade, masked text frames out (zero mask key, which RFC
6455 permits), and unmasked server frames parsed straight from the receive buffer (text, ping ->
pong, close). It offers no extensions, so the server never compresses. It is for loopback
benchmarks, not a general client.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import struct
import time
from collections.abc import Callable
from typing import Any

OnMessage = Callable[[dict[str, Any]], None]
#: Sees each text message's bytes first; returns True when it handled it (then no JSON decoding).
OnText = Callable[[bytes], bool]


def _frame(opcode: int, payload: bytes) -> bytes:
    """A masked client frame (mask key 0: the payload goes as is)."""
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + b"\x00\x00\x00\x00" + payload


class LightSubscriber(asyncio.Protocol):
    """One WebSocket connection; `on_message` gets every decoded protocol message."""

    def __init__(self, host: str, path: str, on_message: OnMessage, on_text: OnText | None = None) -> None:
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
        ).encode()
        self._on_message = on_message
        self._on_text = on_text
        self._buffer = bytearray()
        self._upgraded = False
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        assert self.transport is not None
        self.transport.write(self._request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed before the upgrade: {exc}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.write(_frame(0x1, json.dumps(message).encode()))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(_frame(0x8, struct.pack("!H", 1000)))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._upgraded:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self._buffer[:end]).split(b"\r\n", 1)[0]
            del self._buffer[: end + 4]
            if b" 101 " not in status:
                self.opened.set_exception(ConnectionError(f"upgrade refused: {status!r}"))
                return
            self._upgraded = True
            self.opened.set_result(None)
        self._read_frames()

    def _read_frames(self) -> None:
        buffer = self._buffer
        while len(buffer) >= 2:
            opcode, length, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = struct.unpack_from("!H", buffer, 2)[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = struct.unpack_from("!Q", buffer, 2)[0], 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            if opcode == 0x1:
                if self._on_text is None or not self._on_text(payload):
                    self._on_message(json.loads(payload))
            elif opcode == 0x9 and self.transport is not None:
                self.transport.write(_frame(0xA, payload))
            elif opcode == 0x8:
                self.close()


async def open_subscriber(
    host: str, port: int, on_message: OnMessage, on_text: OnText | None = None
) -> LightSubscriber:
    """A connected, upgraded subscriber to ws://host:port/graphql."""
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(
        lambda: LightSubscriber(f"{host}:{port}", "/graphql", on_message, on_text), host, port
    )
    await protocol.opened
    return protocol


def _server_frame(payload: bytes) -> bytes:
    """An unmasked text frame, as a server sends it."""
    length = len(payload)
    if length < 126:
        return struct.pack("!BB", 0x81, length) + payload
    return struct.pack("!BBH", 0x81, 126, length) + payload


async def _light_cost(stream: bytes, messages: int) -> float:
    """Seconds per message for `LightSubscriber` to parse and decode `stream`."""
    received: list[dict[str, Any]] = []
    subscriber = LightSubscriber("127.0.0.1:1", "/graphql", received.append)
    subscriber._upgraded = True
    started = time.process_time()
    subscriber.data_received(stream)
    elapsed = time.process_time() - started
    assert len(received) == messages
    return elapsed / messages


def _websockets_cost(stream: bytes, messages: int) -> float:
    """Seconds per message for the `websockets` client protocol (sans I/O) to do the same."""
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    protocol = ClientProtocol(parse_uri("ws://127.0.0.1:1/graphql"))
    request = protocol.connect()
    protocol.send_request(request)
    digest = hashlib.sha1((request.headers["Sec-WebSocket-Key"] + _WS_GUID).encode()).digest()
    protocol.receive_data(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: " + base64.b64encode(digest) + b"\r\n\r\n"
    )
    protocol.events_received()
    started = time.process_time()
    protocol.receive_data(stream)
    decoded = [json.loads(frame.data) for frame in protocol.events_received()]
    elapsed = time.process_time() - started
    assert len(decoded) == messages
    return elapsed / messages


_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def main() -> None:
    """`python -m bench.ws_light`: what one received `analysisEvents` message costs this client
    and the `websockets` client, parsing and decoding the same frames (the docstring's reason for
    this module; `bench.event_latency` reports the clients' CPU per delivery under load)."""
    messages = 50_000
    delivered = {"sequence": 0, "eventType": "x"}
    event = {"id": "1", "type": "next", "payload": {"data": {"analysisEvents": delivered}}}
    frames = []
    for number in range(messages):
        delivered["sequence"] = number
        frames.append(_server_frame(json.dumps(event).encode()))
    stream = b"".join(frames)
    light, reference = asyncio.run(_light_cost(stream, messages)), _websockets_cost(stream, messages)
    print(
        f"{messages} messages of {len(frames[0])} bytes: bench.ws_light {light * 1e6:.2f} µs each, "
        f"websockets {reference * 1e6:.2f} µs each ({reference / light:.1f}x)"
    )
    print(
        json.dumps(
            {
                "bench": "ws_light",
                "light_us": round(light * 1e6, 2),
                "websockets_us": round(reference * 1e6, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
