"""Live fan-out: subscribers at the head of a report share one delivery pipeline.

Shared execution (`schema.fast_execution.shared_execution`) runs each event once per operation
scope, but every subscriber still pulls the event through its own chain (hub cursor, resolver,
graphql-core's per-event mapping, Strawberry's per-result hooks, the ASGI send): tens of
microseconds each, which caps one process at a few hundred subscribers of a busy report.

A *group* is the subscribers of one report with one operation scope (document, variables,
organisation) on this process. One member, the leader, keeps its own pipeline running; every
other member that has caught up with it *parks*: its resolver stops pulling events, and each time
the leader sends event `n`, the very same bytes (the cached JSON of the shared result, with the
parked member's operation id) are written straight onto the parked member's connection, if it
stands at `n - 1`. Exactly once and in order follow from that cursor check. A parked member
resumes its own pipeline from its cursor whenever fan-out cannot serve it:

* its connection's write buffer is over `SLOW_BUFFER_BYTES` (a slow consumer then gets the
  ordinary path with its back-pressure, and the hub's Postgres catch-up, without holding anyone);
* the group saw an event that skips its cursor, or the leader leaves (one parked member is woken
  to take over as leader);
* the connection cannot be written to directly (another ASGI server): such members never park.

The leader is replaced when its own connection is slow, so the group never waits for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: A parked member whose connection has more than this unsent goes back to its own pipeline.
SLOW_BUFFER_BYTES = 256 * 1024

Writer = Callable[[bytes, bytes], bool]  # (message bytes, the same as a complete server frame)


@dataclass(eq=False)
class Member:
    """One subscription (operation `operation_id` on a graphql-transport-ws connection)."""

    handler: Any
    operation_id: str
    write: Writer | None
    buffered: Callable[[], int]
    is_live: Callable[[], bool]
    cursor: int = 0  # the last event this subscriber has been sent (by itself or by fan-out)
    parked: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    on_fanout: Callable[[], None] | None = None  # told of each event fan-out writes it (the metrics)

    def unpark(self) -> None:
        self.parked = False
        self.wake.set()


@dataclass(eq=False)
class Group:
    """Subscribers of one report with one operation scope."""

    members: set[Member] = field(default_factory=set)
    leader: Member | None = None
    frontier: int = 0  # the highest event any member has sent

    def leave(self, member: Member) -> None:
        self.members.discard(member)
        if self.leader is member:
            self.leader = None
            self._promote(member.cursor)

    def _promote(self, at: int) -> None:
        """Wake a parked member to lead (the one furthest ahead)."""
        parked = [m for m in self.members if m.parked]
        if parked:
            chosen = max(parked, key=lambda m: m.cursor)
            chosen.unpark()
            self.leader = chosen

    def may_park(self, member: Member) -> bool:
        """Whether `member` (which has just been sent `member.cursor`) can leave delivery to the leader."""
        if member.write is None:
            return False
        if self.leader is None or self.leader not in self.members or self.leader.parked:
            self.leader = member
            return False
        return self.leader is not member and self.leader.cursor == member.cursor == self.frontier

    def sent(self, sender: Member, seq: int, text_for: Callable[[str], tuple[bytes, bytes]]) -> None:
        """`sender` has just sent event `seq`: write it to every parked member standing at `seq - 1`."""
        sender.cursor = max(sender.cursor, seq)
        self.frontier = max(self.frontier, seq)
        for member in list(self.members):
            if not member.parked or member.cursor >= seq:
                continue
            if member.cursor != seq - 1 or not member.is_live() or member.buffered() > SLOW_BUFFER_BYTES:
                member.unpark()  # back to its own pipeline, from its own cursor
                continue
            assert member.write is not None
            if member.write(*text_for(member.operation_id)):
                member.cursor = seq
                if member.on_fanout is not None:
                    member.on_fanout()
            else:
                member.unpark()
        if sender is self.leader and sender.buffered() > SLOW_BUFFER_BYTES:
            self.leader = None
            self._promote(seq)


_groups: dict[tuple[str, str], Group] = {}
#: The graphql-transport-ws operation being run by the current task: (handler, operation id).
CURRENT_OPERATION: contextvars.ContextVar[tuple[Any, str] | None] = contextvars.ContextVar(
    "sibyl_current_operation", default=None
)


def group_for(scope: str, report: str) -> Group:
    return _groups.setdefault((scope, report), Group())


def drop_if_empty(scope: str, report: str) -> None:
    group = _groups.get((scope, report))
    if group is not None and not group.members:
        del _groups[(scope, report)]


def member_for_current_operation() -> Member | None:
    """A fan-out member for the operation this task runs, or None outside graphql-transport-ws."""
    current = CURRENT_OPERATION.get()
    if current is None:
        return None
    handler, operation_id = current
    connection = direct_connection(getattr(handler.websocket, "ws", None))
    if connection is None:
        return Member(handler, operation_id, None, lambda: 0, lambda: True)

    def is_live() -> bool:
        return operation_id in handler.operations and not connection.transport.is_closing()

    return Member(handler, operation_id, connection.write, connection.buffered, is_live)


def after_send(handler: Any, operation_id: str, scope: str, report: str, seq: int, data_json: str) -> None:
    """Called once the connection's own pipeline has sent event `seq` of `report` for `scope`."""
    group = _groups.get((scope, report))
    if group is None:
        return
    sender = next((m for m in group.members if m.handler is handler and m.operation_id == operation_id), None)
    if sender is None:
        return
    encoded: dict[str, tuple[bytes, bytes]] = {}

    def text_for(member_operation: str) -> tuple[bytes, bytes]:
        """The message for an operation id, and its frame (built once per id: a crowd of
        dashboards uses the same few ids)."""
        if member_operation not in encoded:
            message = next_message(member_operation, data_json).encode()
            encoded[member_operation] = (message, text_frame(message))
        return encoded[member_operation]

    group.sent(sender, seq, text_for)


def next_message(operation_id: str, data_json: str) -> str:
    """A graphql-transport-ws `next` message around an already serialised `data`."""
    return f'{{"id":{json.dumps(operation_id)},"type":"next","payload":{{"data":{data_json}}}}}'


def text_frame(payload: bytes) -> bytes:
    """A complete, unmasked, unfragmented RFC 6455 text frame (what a server sends)."""
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x81, length)
    elif length < 65536:
        header = struct.pack("!BBH", 0x81, 126, length)
    else:
        header = struct.pack("!BBQ", 0x81, 127, length)
    return header + payload


@dataclass
class DirectConnection:
    """Synchronous frame writes on a uvicorn WebSocket (no ASGI round trip)."""

    transport: Any
    write: Writer
    buffered: Callable[[], int]


def direct_connection(websocket: Any) -> DirectConnection | None:
    """The uvicorn protocol under a Starlette `WebSocket`, if it can be written to directly.

    uvicorn passes its protocol's bound `send` as the ASGI `send`, so its `__self__` is the protocol.
    Starlette's exception handling wraps it in a closure, which is looked through (a few levels);
    when no protocol is found there is no direct path, and fan-out is off for that connection.
    """
    protocol = _protocol_of(getattr(websocket, "_send", None), UNWRAP_DEPTH)
    transport = getattr(protocol, "transport", None)
    if transport is None or not hasattr(transport, "get_write_buffer_size"):
        return None
    connection = getattr(protocol, "conn", None)  # uvicorn's websockets-sansio protocol
    if connection is not None and hasattr(connection, "send_text") and hasattr(connection, "data_to_send"):

        def write_sansio(message: bytes, frame: bytes) -> bool:
            if transport.is_closing():
                return False
            if connection.extensions:  # e.g. per-message deflate: the protocol frames it
                connection.send_text(message)
                transport.write(b"".join(connection.data_to_send()))
            else:  # a server frame is the same bytes for every connection
                transport.write(frame)
            return True

        return DirectConnection(transport, write_sansio, transport.get_write_buffer_size)
    return None


UNWRAP_DEPTH = 4


def _protocol_of(send: Any, depth: int) -> Any:
    """The object whose bound method `send` is, looking through wrapping closures."""
    owner = getattr(send, "__self__", None)
    if owner is not None and hasattr(owner, "transport"):
        return owner
    if depth == 0:
        return None
    for cell in getattr(send, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if callable(inner):
            found = _protocol_of(inner, depth - 1)
            if found is not None:
                return found
    return None
