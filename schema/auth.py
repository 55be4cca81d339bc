"""Who is calling: API keys from HTTP headers or a WebSocket `connection_init` payload, and
`admit`, the one check every way in applies (a usable key, within its rate limit).

HTTP requests are checked by `schema.middleware.ApiKeyGuard`, WebSocket connections when they are
initialised (`SibylGraphQL.on_ws_connect`) and each of their operations (`schema.ws_guard`); each
turns a `Refused` into its own transport's error.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Headers

from app.db.session import SessionFactory
from app.organisations import LOCAL_ORGANISATION_ID, Principal, authenticate
from app.ratelimit import RateDecision
from schema.errors import CloseCode, ErrorCode, close_reason, one_line

if TYPE_CHECKING:
    from schema.context import Services

logger = logging.getLogger(__name__)

#: A checked key is trusted this long in-process (a revoked key stops working within this time).
CACHE_SECONDS = 30.0
CACHE_SIZE = 1024

MISSING_KEY = (
    "An API key is required: send `Authorization: Bearer <key>` (create one with `sibyl keys create`)."
)
INVALID_KEY = "The API key is not valid (unknown, malformed or revoked)."


class Refused(Exception):
    """The request may not proceed: an HTTP status, a message for a person, GraphQL error extensions
    (with a machine-readable `code`), any HTTP headers to send, and the close code that refuses a
    WebSocket `connection_init` for the same reason."""

    status = 400
    close_code: CloseCode = CloseCode.INVALID_API_KEY
    extensions: dict[str, Any] = {}
    headers: list[tuple[bytes, bytes]] = []

    @property
    def code(self) -> ErrorCode:
        return ErrorCode[self.extensions["code"]]

    @property
    def close_reason(self) -> str:
        """`<code>: <message>`, as a WebSocket close frame carries it."""
        return close_reason(self.code, str(self))


class AuthenticationFailed(Refused):
    """No usable API key; the message says what to do."""

    status = 401
    extensions = {"code": ErrorCode.UNAUTHENTICATED.name}
    headers = [(b"www-authenticate", b'Bearer realm="sibyl"')]


class MissingKey(AuthenticationFailed):
    """No key was sent (and unauthenticated use is off)."""

    close_code = CloseCode.MISSING_API_KEY

    def __init__(self) -> None:
        super().__init__(MISSING_KEY)


class InvalidKey(AuthenticationFailed):
    """The key sent is unknown, malformed or revoked."""

    close_code = CloseCode.INVALID_API_KEY

    def __init__(self) -> None:
        super().__init__(INVALID_KEY)


class RateLimited(Refused):
    """The key is over its rate limit; `retryAfterSeconds` says when the next request fits."""

    status = 429
    close_code = CloseCode.RATE_LIMITED

    def __init__(self, decision: RateDecision) -> None:
        super().__init__(
            f"Rate limit of {decision.limit} requests per minute (bursts of {decision.burst}) exceeded "
            f"for this API key; retry in {decision.retry_after_seconds} s."
        )
        self.extensions = {
            "code": ErrorCode.RATE_LIMITED.name,
            "retryAfterSeconds": decision.retry_after_seconds,
            "limit": decision.limit,
            "burst": decision.burst,
        }
        self.headers = [(b"retry-after", str(decision.retry_after_seconds).encode())]


def log_refusal(refusal: Refused, transport: str) -> None:
    """One INFO line per refused request: a client's mistake, not the server's (no traceback)."""
    logger.info("refused %s: %s %s", transport, refusal.code.name, one_line(str(refusal)))


async def admit(services: Services, key: str | None) -> Principal:
    """The principal `key` acts for, with this request counted against its rate limit.

    Raises:
        AuthenticationFailed: no usable key (and unauthenticated use is off).
        RateLimited: the key has no requests left for now.
    """
    principal = await services.authenticator.principal(key)
    decision = await services.rate_limiter.hit(principal.rate_limit_key)
    if not decision.allowed:
        raise RateLimited(decision)
    return principal


class Authenticator:
    """Turns a presented key (or none) into a `Principal`, caching answers briefly."""

    def __init__(self, session_factory: SessionFactory, *, allow_unauthenticated: bool) -> None:
        self._session_factory = session_factory
        self.allow_unauthenticated = allow_unauthenticated
        self._cache: OrderedDict[str, tuple[float, Principal | None]] = OrderedDict()

    async def principal(self, key: str | None) -> Principal:
        """The principal for `key`; raises `AuthenticationFailed` when there is none to act for."""
        if not key:
            if self.allow_unauthenticated:
                return Principal(organisation_id=LOCAL_ORGANISATION_ID)
            raise MissingKey
        principal = await self._lookup(key)
        if principal is None:
            raise InvalidKey
        return principal

    async def _lookup(self, key: str) -> Principal | None:
        now = time.monotonic()
        cached = self._cache.get(key)
        if cached is not None and cached[0] > now:
            self._cache.move_to_end(key)
            return cached[1]
        async with self._session_factory() as session:
            principal = await authenticate(session, key)
        self._cache[key] = (now + CACHE_SECONDS, principal)
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return principal


def key_from_headers(headers: Headers) -> str | None:
    """The key in `Authorization: Bearer …` or `X-API-Key`."""
    authorization = headers.get("authorization", "")
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return headers.get("x-api-key") or None


def key_from_connection_params(params: Mapping[str, Any] | None) -> str | None:
    """The key in a `connection_init` payload: `authorization` ("Bearer …") or `apiKey`."""
    if not params:
        return None
    lowered = {str(name).lower(): value for name, value in params.items()}
    authorization = lowered.get("authorization")
    if isinstance(authorization, str):
        scheme, _, value = authorization.partition(" ")
        return (value if scheme.lower() == "bearer" else authorization).strip() or None
    api_key = lowered.get("apikey") or lowered.get("x-api-key")
    return api_key.strip() or None if isinstance(api_key, str) else None
