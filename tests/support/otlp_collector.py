"""An OTLP/HTTP trace collector in the test's process: it takes `POST /v1/traces` as the
OpenTelemetry exporter sends it (protobuf `ExportTraceServiceRequest`), and keeps the spans."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.support.http_server import serve_asgi


@dataclass(frozen=True)
class CollectedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    service: str
    attributes: dict[str, Any]


@dataclass
class Collector:
    url: str = ""
    spans: list[CollectedSpan] = field(default_factory=list)

    def named(self, prefix: str) -> list[CollectedSpan]:
        return [span for span in self.spans if span.name.startswith(prefix)]

    def ancestors(self, span: CollectedSpan) -> Iterator[CollectedSpan]:
        """The spans above `span` in its trace, nearest first."""
        by_id = {each.span_id: each for each in self.spans}
        parent = by_id.get(span.parent_id)
        while parent is not None:
            yield parent
            parent = by_id.get(parent.parent_id)

    async def receive(self, request: Request) -> Response:
        export = ExportTraceServiceRequest()
        export.ParseFromString(await request.body())
        for resource_spans in export.resource_spans:
            resource = _attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    self.spans.append(
                        CollectedSpan(
                            name=span.name,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            service=str(resource.get("service.name", "")),
                            attributes=_attributes(span.attributes),
                        )
                    )
        answer = ExportTraceServiceResponse().SerializeToString()
        return Response(answer, media_type="application/x-protobuf")


def _attributes(pairs: Any) -> dict[str, Any]:
    return {pair.key: _value(pair.value) for pair in pairs}


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


@asynccontextmanager
async def otlp_collector() -> AsyncIterator[Collector]:
    collector = Collector()
    app = Starlette(routes=[Route("/v1/traces", collector.receive, methods=["POST"])])
    async with serve_asgi(app) as url:
        collector.url = url
        yield collector
