"""HTTP transport: POSTs GraphQL requests (JSON or multipart), maps failures to typed errors and
retries rate-limited requests as the server asks, so callers never see a raw 429."""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import time
from collections.abc import Mapping
from typing import Any

import httpx

from clients.sibyl.errors import (
    AuthenticationError,
    ConfigurationError,
    GraphQLErrors,
    RateLimitedError,
    ServerUnreachable,
    SibylError,
    raise_for_errors,
    retry_after_from_errors,
)
from clients.sibyl.persisted import not_supported, request_body, wants_document

DEFAULT_URL = "http://127.0.0.1:8000"
USER_AGENT = "sibyl-python-client/0.1"


def resolve_base_url(base_url: str | None) -> str:
    """The server's base URL: the argument, else `SIBYL_API_URL`, else the local default.

    Raises:
        ConfigurationError: The URL is not an http(s) URL with a host.
    """
    url = (base_url or os.environ.get("SIBYL_API_URL") or DEFAULT_URL).rstrip("/")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError) as error:
        raise ConfigurationError(f"invalid server URL {url!r}: {error}") from error
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigurationError(f"invalid server URL {url!r}: expected http(s)://host[:port]")
    return url.removesuffix("/graphql")


def resolve_api_key(api_key: str | None) -> str | None:
    """The API key: the argument, else `SIBYL_API_KEY`, else None (servers that allow anonymous use)."""
    return api_key or os.environ.get("SIBYL_API_KEY") or None


def websocket_url(base_url: str) -> str:
    """The GraphQL WebSocket endpoint for an http(s) base URL."""
    if base_url.startswith("https://"):
        return "wss://" + base_url.removeprefix("https://") + "/graphql"
    return "ws://" + base_url.removeprefix("http://") + "/graphql"


def retry_after(response: httpx.Response, body: Mapping[str, Any] | None) -> float | None:
    """Seconds to wait from `Retry-After` (seconds or an HTTP date), else the error extension."""
    header = response.headers.get("retry-after")
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(header) if header else None
            if parsed is not None:
                return max(0.0, parsed.timestamp() - time.time())
    errors = body.get("errors") if body else None
    return retry_after_from_errors(errors) if isinstance(errors, list) else None


def _json_body(response: httpx.Response) -> dict[str, Any] | None:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _first_message(body: Mapping[str, Any] | None, default: str) -> str:
    errors = body.get("errors") if body else None
    if isinstance(errors, list) and errors and isinstance(errors[0], Mapping):
        return str(errors[0].get("message") or default)
    return default


class HttpTransport:
    """Sends GraphQL over HTTP to one server with one API key.

    Args:
        base_url: Server root, e.g. `https://sibyl.example.com` (`/graphql` is added).
        api_key: Sent as `Authorization: Bearer <key>` when given.
        timeout: Seconds for each HTTP request.
        max_retries: How many times a 429 is retried before `RateLimitedError`.
        max_retry_wait: Upper bound on one Retry-After sleep, so a bad header cannot hang the caller.
        persisted_queries: Send documents as automatic persisted queries (`clients.sibyl.persisted`):
            the hash first, the full document only when the server asks for it.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout: float,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        persisted_queries: bool = True,
    ) -> None:
        headers = {"User-Agent": USER_AGENT}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.endpoint = f"{base_url}/graphql"
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.persisted_queries = persisted_queries
        self.http = httpx.AsyncClient(headers=headers, timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def execute(self, query: str, variables: Mapping[str, Any]) -> dict[str, Any]:
        """`data` of a JSON GraphQL request; raises on any HTTP or GraphQL error.

        With persisted queries on, the document's hash goes first and the document itself only if
        the server has not seen it (or does not do persisted queries).
        """
        persisted = self.persisted_queries
        try:
            return await self._send(
                json=request_body(query, variables, send_document=False, persisted=persisted)
            )
        except GraphQLErrors as error:
            if not persisted:
                raise
            if not_supported(error.errors):
                self.persisted_queries = False
            elif not wants_document(error.errors):
                raise
        body = request_body(query, variables, send_document=True, persisted=self.persisted_queries)
        return await self._send(json=body)

    async def upload(
        self, query: str, variables: Mapping[str, Any], file_variable: str, filename: str, content: bytes
    ) -> dict[str, Any]:
        """`data` of a GraphQL multipart request (the spec's operations + map + file parts)."""
        operations = {"query": query, "variables": {**variables, file_variable: None}}
        files_map = {"0": [f"variables.{file_variable}"]}
        return await self._send(
            data={"operations": json.dumps(operations), "map": json.dumps(files_map)},
            files={"0": (filename, content, "application/pdf")},
            headers={"Apollo-Require-Preflight": "true"},
        )

    async def _send(self, **request: Any) -> dict[str, Any]:
        for attempt in range(self.max_retries + 1):
            response = await self._post(request)
            body = _json_body(response)
            if response.status_code != 429:
                return self._data(response, body)
            wait = retry_after(response, body)
            if attempt == self.max_retries:
                raise RateLimitedError(_first_message(body, "Rate limited by the server."), wait)
            await asyncio.sleep(min(self.max_retry_wait, 1.0 if wait is None else wait))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _post(self, request: Mapping[str, Any]) -> httpx.Response:
        try:
            return await self.http.post(self.endpoint, **request)
        except httpx.TimeoutException as error:
            raise ServerUnreachable(f"no answer from {self.endpoint} in time ({error!r})") from error
        except httpx.TransportError as error:
            raise ServerUnreachable(f"cannot reach {self.endpoint}: {error}") from error

    @staticmethod
    def _data(response: httpx.Response, body: dict[str, Any] | None) -> dict[str, Any]:
        if response.status_code == 401:
            raise AuthenticationError(_first_message(body, "Missing or invalid API key."))
        if body is None:
            snippet = response.text[:200].strip()
            raise SibylError(f"Unexpected HTTP {response.status_code} from the server: {snippet}")
        errors = body.get("errors")
        if errors:
            raise_for_errors(errors)
        data = body.get("data")
        if response.is_error or not isinstance(data, dict):
            raise SibylError(f"Unexpected HTTP {response.status_code} from the server: no data.")
        return data
