"""ASGI middleware in front of the GraphQL endpoint: authentication, rate limits, the upload CSRF check.

Every GraphQL request over HTTP passes `ApiKeyGuard`, which authenticates it (401 without a valid
key, unless unauthenticated local development is enabled) and applies the per-key rate limit
(429 with `Retry-After`), each refusal in the media type the client asked for
(`schema.transport.media_types`). Loading the GraphiQL page itself needs no key, nor do the
dashboard's static files (`app.web.static`) or `GET /metrics`, which shows no organisation's data
and is neither authenticated nor rate-limited (`schema.transport.metrics_endpoint`); report page
images authenticate in their own route with the same `admit` (`schema.transport.page_images`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from starlette._utils import get_route_path
from starlette.datastructures import Headers, QueryParams
from starlette.types import ASGIApp, Receive, Scope, Send

from schema.errors import ErrorCode, error_document, outage_code, outage_message
from schema.transport.auth import Refused, admit, client_address, key_from_headers, log_refusal
from schema.transport.media_types import MediaType, scope_media_type, status_headers

logger = logging.getLogger(__name__)

PREFLIGHT_HEADERS = (b"apollo-require-preflight", b"x-apollo-operation-name", b"graphql-require-preflight")
PREFLIGHT_REQUIRED = (
    "Multipart requests must carry the header `Apollo-Require-Preflight: true` "
    "(protection against cross-site request forgery)."
)


class UploadGuard:
    """Guards multipart (file upload) requests.

    A browser sends a multipart POST cross-site without a CORS preflight, so a malicious page could
    upload in a logged-in user's name. Requiring a custom header forces the preflight (CSRF guard).
    Sizes are `schema.transport.http_edge.BodyLimits`' concern: bodies far beyond the upload limit are cut off
    as they arrive; those just over it reach the resolver, which answers with a typed TOO_LARGE error.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope["headers"])
            if headers.get(b"content-type", b"").startswith(b"multipart/form-data"):
                problem = self._problem(headers)
                if problem is not None:
                    status, code, message = problem
                    logger.info("refused upload: %s %s", code.name, message)
                    await _send_error(send, scope_media_type(scope), status, message, {"code": code.name})
                    return
        await self.app(scope, receive, send)

    def _problem(self, headers: dict[bytes, bytes]) -> tuple[int, ErrorCode, str] | None:
        if not any(headers.get(name) for name in PREFLIGHT_HEADERS):
            return 400, ErrorCode.PREFLIGHT_REQUIRED, PREFLIGHT_REQUIRED
        return None


class ApiKeyGuard:
    """Authenticates and rate-limits GraphQL requests over HTTP before Strawberry reads them."""

    def __init__(self, app: ASGIApp, *, path: str = "/graphql") -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or get_route_path(scope) != self.path or not _executes(scope):
            await self.app(scope, receive, send)
            return
        try:
            key = key_from_headers(Headers(scope=scope))
            principal = await admit(scope["app"].state.services, key, client_address(scope))
        except Refused as exc:
            log_refusal(exc, "HTTP request")
            await _send_error(
                send, scope_media_type(scope), exc.status, str(exc), exc.extensions, exc.headers
            )
            return
        except Exception as exc:  # the key lookup met a database that is away or does not answer
            code = outage_code(exc)
            if code is None:
                raise
            logger.warning("%s while authenticating an HTTP request: %r", code.name, exc)
            retry = [(name.encode(), value.encode()) for name, value in status_headers(503).items()]
            await _send_error(
                send, scope_media_type(scope), 503, outage_message(exc, code), {"code": code.name}, retry
            )
            return
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)


def _executes(scope: Scope) -> bool:
    """Whether the request runs an operation (a POST, or a GET with `?query=` or, for a persisted
    query sent by its hash alone, `?extensions=`), not the IDE page. A hash-only GET is an operation
    like any other: it needs a key, counts against the rate limit, and looks its document up in the
    key's organisation."""
    if scope["method"] == "POST":
        return True
    return scope["method"] == "GET" and runs_operation(QueryParams(scope.get("query_string", b"")))


def runs_operation(params: Mapping[str, object]) -> bool:
    """Whether a GET's query parameters ask for an operation (`query`, or `extensions` carrying a
    persisted query's hash) rather than the GraphiQL page."""
    return "query" in params or "extensions" in params


async def _send_error(
    send: Send,
    media_type: MediaType,
    status: int,
    message: str,
    extensions: dict[str, Any] | None = None,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """A GraphQL-shaped error body (`{"errors": [...]}`) with an HTTP status."""
    body = json.dumps(error_document(message, extensions)).encode()
    headers = [
        (b"content-type", media_type.content_type.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra_headers or [])})
    await send({"type": "http.response.body", "body": body})
