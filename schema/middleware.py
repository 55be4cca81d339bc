"""ASGI middleware in front of the GraphQL endpoint."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

PREFLIGHT_HEADERS = (b"apollo-require-preflight", b"x-apollo-operation-name", b"graphql-require-preflight")


class UploadGuard:
    """Guards multipart (file upload) requests.

    A browser sends a multipart POST cross-site without a CORS preflight, so a malicious page could
    upload in a logged-in user's name. Requiring a custom header forces the preflight (CSRF guard).
    Bodies far beyond the upload limit are refused before they are read; those just over it reach
    the resolver, which answers with a typed TOO_LARGE error.
    """

    def __init__(self, app: ASGIApp, *, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope["headers"])
            if headers.get(b"content-type", b"").startswith(b"multipart/form-data"):
                problem = self._problem(headers)
                if problem is not None:
                    await _refuse(send, *problem)
                    return
        await self.app(scope, receive, send)

    def _problem(self, headers: dict[bytes, bytes]) -> tuple[int, str] | None:
        if not any(headers.get(name) for name in PREFLIGHT_HEADERS):
            return 400, (
                "Multipart requests must carry the header `Apollo-Require-Preflight: true` "
                "(protection against cross-site request forgery)."
            )
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            return 413, f"The request body is larger than {self.max_body_bytes} bytes."
        return None


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"errors": [{"message": message}]}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
