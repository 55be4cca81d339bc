"""Security headers on every response (a Content-Security-Policy with no inline code, nosniff,
no referrer) and gzip for the static files the browser loads.

The dashboard and the GraphiQL page load scripts and styles only from this server, so the policy
allows nothing else: an injected `<script>` or `style=` attribute does not run, and no page may
frame ours. `connect-src 'self'` lets pages fetch from and open WebSockets to this origin only (the
graphql-transport-ws subscriptions): CSP Level 3 browsers match `'self'` to the page's own
`ws:`/`wss:` origin, so an injected script could not send what the page holds to another host.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' blob: data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
    ]
)


class SecurityHeaders:
    """Adds the CSP and `X-Content-Type-Options: nosniff` to HTTP responses that set none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("content-security-policy", CONTENT_SECURITY_POLICY)
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("referrer-policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class CompressStatic:
    """Gzips the dashboard's and GraphiQL's files (for browsers that accept it); the API's own
    responses pass untouched, so streamed GraphQL responses are never buffered by compression."""

    def __init__(self, app: ASGIApp, prefixes: tuple[str, ...] = ("/web/", "/graphiql")) -> None:
        self.app = app
        self.prefixes = prefixes
        self.gzip = GZipMiddleware(app, minimum_size=1024)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path == "/" or path.startswith(self.prefixes):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
