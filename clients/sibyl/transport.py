"""HTTP transport: POSTs GraphQL requests (JSON or multipart), maps failures to typed errors,
retries rate-limited requests as the server asks, so callers never see a raw 429, and (with
`retry_seconds`) rides out a server restart or a database blip: network errors and the server's
`SERVICE_UNAVAILABLE` are retried with backoff for that long."""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from clients.sibyl.errors import (
    AuthenticationError,
    ConfigurationError,
    GraphQLErrors,
    RateLimitedError,
    ServerUnreachable,
    ServiceUnavailable,
    SibylError,
    raise_for_errors,
    retry_after_from_errors,
)
from clients.sibyl.persisted import not_supported, request_body, wants_document

DEFAULT_URL = "http://127.0.0.1:8000"
USER_AGENT = "sibyl-python-client/0.1"
#: First and longest pause between retries of an unreachable or unavailable server.
RETRY_FIRST_WAIT, RETRY_MAX_WAIT = 0.25, 4.0
#: Gateway answers without a GraphQL body: a proxy whose upstream API is restarting.
UNAVAILABLE_STATUSES = frozenset({502, 503, 504})
MUTATION = re.compile(r"^\s*(?:#[^\n]*\n\s*)*mutation\b")
#: Told about each retry: the error and the seconds until the next attempt.
RetryListener = Callable[[SibylError, float], None]


def is_mutation(document: str) -> bool:
    """Whether a GraphQL document is a mutation (not retried once it may have reached the server)."""
    return MUTATION.match(document) is not None


def backoff(attempt: int) -> float:
    """The pause before retry number `attempt` (1, 2, …): doubling from 0.25 s, at most 4 s."""
    return float(min(RETRY_MAX_WAIT, RETRY_FIRST_WAIT * 2 ** (attempt - 1)))


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
        retry_seconds: How long to keep retrying a request the server could not take (no
            connection, or `SERVICE_UNAVAILABLE`) before raising it; 0 raises at once. A mutation
            is retried only when it cannot have been applied (the connection never opened, or
            the server said it was unavailable).
        on_retry: Called before each such retry (to tell a user why nothing happens).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout: float,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        persisted_queries: bool = True,
        retry_seconds: float = 0.0,
        on_retry: RetryListener | None = None,
    ) -> None:
        headers = {"User-Agent": USER_AGENT}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.endpoint = f"{base_url}/graphql"
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.persisted_queries = persisted_queries
        self.retry_seconds = retry_seconds
        self.on_retry = on_retry
        self.http = httpx.AsyncClient(headers=headers, timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def execute(self, query: str, variables: Mapping[str, Any]) -> dict[str, Any]:
        """`data` of a JSON GraphQL request; raises on any HTTP or GraphQL error.

        With persisted queries on, the document's hash goes first and the document itself only if
        the server has not seen it (or does not do persisted queries).
        """
        persisted, idempotent = self.persisted_queries, not is_mutation(query)
        try:
            return await self._send(
                idempotent, json=request_body(query, variables, send_document=False, persisted=persisted)
            )
        except GraphQLErrors as error:
            if not persisted:
                raise
            if not_supported(error.errors):
                self.persisted_queries = False
            elif not wants_document(error.errors):
                raise
        body = request_body(query, variables, send_document=True, persisted=self.persisted_queries)
        return await self._send(idempotent, json=body)

    async def upload(
        self, query: str, variables: Mapping[str, Any], file_variable: str, filename: str, content: bytes
    ) -> dict[str, Any]:
        """`data` of a GraphQL multipart request (the spec's operations + map + file parts); retried
        like a query, as the server stores identical bytes once."""
        operations = {"query": query, "variables": {**variables, file_variable: None}}
        files_map = {"0": [f"variables.{file_variable}"]}
        return await self._send(
            True,
            data={"operations": json.dumps(operations), "map": json.dumps(files_map)},
            files={"0": (filename, content, "application/pdf")},
            headers={"Apollo-Require-Preflight": "true"},
        )

    async def _send(self, idempotent: bool, **request: Any) -> dict[str, Any]:
        """One request, retried while the server is unreachable or unavailable (`retry_seconds`)."""
        deadline, attempt = time.monotonic() + self.retry_seconds, 0
        while True:
            try:
                return await self._send_once(request)
            except ServerUnreachable as error:
                wait = min(backoff(attempt := attempt + 1), deadline - time.monotonic())
                if self.retry_seconds <= 0 or (error.maybe_applied and not idempotent):
                    raise
                if wait <= 0:
                    raise type(error)(
                        f"{error} (still failing after {self.retry_seconds:g} s of retries)"
                    ) from error
                if self.on_retry is not None:
                    self.on_retry(error, wait)
                await asyncio.sleep(wait)

    async def _send_once(self, request: Mapping[str, Any]) -> dict[str, Any]:
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
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:  # nothing was sent
            raise ServerUnreachable(
                f"cannot reach {self.endpoint}: {error or type(error).__name__}"
            ) from error
        except httpx.TimeoutException as error:
            message = f"no answer from {self.endpoint} in time ({error!r})"
            raise ServerUnreachable(message, maybe_applied=True) from error
        except httpx.TransportError as error:
            message = f"lost the connection to {self.endpoint}: {error or type(error).__name__}"
            raise ServerUnreachable(message, maybe_applied=True) from error

    @staticmethod
    def _data(response: httpx.Response, body: dict[str, Any] | None) -> dict[str, Any]:
        if response.status_code == 401:
            raise AuthenticationError(_first_message(body, "Missing or invalid API key."))
        if body is None and response.status_code in UNAVAILABLE_STATUSES:
            raise ServiceUnavailable(f"the server is unavailable (HTTP {response.status_code})")
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
