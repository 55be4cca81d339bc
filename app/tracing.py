"""Traces with OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set.

One trace follows a report from the operation that asked for work (`uploadReport`, `startAnalysis`)
through the job the API queued, the pipeline's nodes, each specialist, and every LLM and web search
call: the API passes the trace's context with the job (`job_trace_context`, W3C `traceparent`), and
the worker continues it (`continued_trace`). Spans go to the collector over OTLP/HTTP
(`opentelemetry-exporter-otlp-proto-http`, which reads the standard OTEL_* variables: endpoint,
headers, timeout).

Off, nothing is imported from the SDK and `span` is a shared no-op context manager: an operator who
does not trace pays one attribute read per span site.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace

logger = logging.getLogger(__name__)

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
#: The job keyword that carries the trace context from the API to the worker.
TRACE_CONTEXT_KWARG = "trace_context"
_NO_SPAN = contextlib.nullcontext()


class _State:
    enabled = False
    tracer: trace.Tracer = trace.NoOpTracer()
    provider: Any = None


def tracing_requested() -> bool:
    """Whether a collector is configured (the standard OTLP endpoint variables)."""
    return any(os.environ.get(name) for name in ENDPOINT_VARIABLES)


def configure_tracing(service_name: str) -> bool:
    """Export this process's spans as `service_name` when a collector is configured; True if on.

    The provider is ours, not OpenTelemetry's global one (which can be set once per process), so
    that `stop_tracing` can end it; the trace context still travels in OpenTelemetry's context."""
    if _State.enabled or not tracing_requested():
        return _State.enabled
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    _State.provider, _State.tracer, _State.enabled = provider, provider.get_tracer("sibyl"), True
    logger.info("tracing on: spans of %s go to the OTLP collector", service_name)
    return True


def flush_traces(timeout_millis: int = 5000) -> None:
    """Send the spans still buffered (before a process ends, or in a test)."""
    if _State.provider is not None:
        _State.provider.force_flush(timeout_millis)


def stop_tracing() -> None:
    """Send what is buffered and stop tracing (spans are no-ops again)."""
    provider = _State.provider
    _State.provider, _State.tracer, _State.enabled = None, trace.NoOpTracer(), False
    if provider is not None:
        provider.shutdown()


def span(name: str, **attributes: Any) -> contextlib.AbstractContextManager[Any]:
    """A span around the block, child of the current one (a shared no-op when tracing is off).
    Attribute values that are None are left out; never pass a company's or a user's text."""
    if not _State.enabled:
        return _NO_SPAN
    given = {key: value for key, value in attributes.items() if value is not None}
    return _State.tracer.start_as_current_span(name, attributes=given)


def job_trace_context() -> dict[str, str]:
    """The current trace's context for a job to continue ({} when tracing is off)."""
    if not _State.enabled:
        return {}
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


@contextlib.contextmanager
def continued_trace(carrier: Mapping[str, str] | None) -> Iterator[None]:
    """Make the trace `carrier` names (from `job_trace_context`) the current one in the block."""
    if not _State.enabled or not carrier:
        yield
        return
    token = otel_context.attach(propagate.extract(dict(carrier)))
    try:
        yield
    finally:
        otel_context.detach(token)
