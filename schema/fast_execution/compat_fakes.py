"""The throwaway Strawberry schema and the stand-ins for uvicorn's WebSocket protocol that the
start-up probes of `schema.fast_execution.compat` run (only public decorators are used here)."""

from __future__ import annotations

import enum
import functools
from typing import Any, NamedTuple

import strawberry


class Probe(NamedTuple):
    """The probe schema: Strawberry's, graphql-core's, and a parsed query of every probe field."""

    strawberry: Any
    graphql: Any
    document: Any


@strawberry.enum
class ProbeShade(enum.Enum):
    DARK = "dark"


@strawberry.interface
class ProbeThing:
    name: str


@strawberry.type
class ProbeItem(ProbeThing):
    """Each kind of field the shortcuts recognise: a plain attribute leaf (`name`), an enum leaf
    (`shade`) and a synchronous resolver with an argument (`doubled`), on a type implementing an
    interface (so Strawberry gives it its `is_type_of`)."""

    shade: ProbeShade

    @strawberry.field
    def doubled(self, times: int = 2) -> str:
        return self.name * times


@strawberry.type
class ProbeQuery:
    @strawberry.field
    def item(self) -> ProbeItem:
        return ProbeItem(name="probe", shade=ProbeShade.DARK)


@functools.cache
def probe_schema() -> Probe:
    """A throwaway Strawberry schema of the probe types (built on first use)."""
    from graphql import parse

    schema = strawberry.Schema(query=ProbeQuery)
    return Probe(schema, schema._schema, parse("{ item { name shade doubled } }"))


class FakeTransport:
    """Stands in for the asyncio transport under uvicorn's protocol: it keeps what is written."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.write = self.written.append

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


class FakeProtocol:
    """Stands in for uvicorn's WebSocket protocol: its bound `send` is the ASGI send."""

    def __init__(self) -> None:
        from websockets.server import ServerProtocol

        self.transport = FakeTransport()
        self.conn = ServerProtocol()

    async def send(self, message: Any) -> None:
        pass
