"""Who is calling: API keys from HTTP headers or a WebSocket `connection_init` payload, and
`admit`, the one check every way in applies (a usable key, within its rate limit).

HTTP requests are checked by `schema.transport.middleware.ApiKeyGuard`, WebSocket connections when they are
initialised (`SibylGraphQL.on_ws_connect`) and each of their operations (`schema.transport.ws_guard`); each
turns a `Refused` into its own transport's error.

What a hostile caller can make the API hold or do is bounded here:

- A presented key that is not exactly the shape of the keys Sibyl issues (`KEY_LENGTH`, 58
  characters) is refused before anything is cached or looked up, however large it is.
- Checked keys are cached for API_KEY_CACHE_SECONDS, at most `CACHE_SIZE` of them; well-formed keys
  the database does not know are remembered too (so a client retrying a wrong key does not query
  the database each time), at most `UNKNOWN_CACHE_SIZE`. Malformed keys leave no entry.
- Failed authentications are counted per client address (AUTH_FAILURES_PER_MINUTE, in Redis like
  the per-key limit); an address over its budget gets 429 RATE_LIMITED with `Retry-After`, and its
  unverified keys are not looked up. A request without any key is refused without being counted.
  The address is the one the server sees: behind a proxy, let uvicorn read the forwarded one
  (`--forwarded-allow-ips`).
- A WebSocket re-checks its key whenever the cached answer expires (`schema.transport.ws_guard`), so a
  revoked or deleted key's open connections close (4403) within API_KEY_CACHE_SECONDS; one key may
  hold MAX_WEBSOCKETS_PER_KEY open connections per API process (`OpenSockets`), the next is
  closed with 1013 (try again later).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.datastructures import Headers
from starlette.types import Scope

from app.db.session import SessionFactory
from app.organisations import LOCAL_ORGANISATION_ID, Principal, authenticate
from app.organisations.keys import KEY_LENGTH, is_well_formed
from app.ratelimit import RateDecision, RateLimiter
from schema.errors import CloseCode, ErrorCode, close_reason, one_line

if TYPE_CHECKING:
    from schema.context import Services

logger = logging.getLogger(__name__)

#: A checked key is trusted this long in-process unless API_KEY_CACHE_SECONDS says otherwise.
CACHE_SECONDS = 30.0
#: Most keys the API remembers as valid, and as unknown to the database (each entry is ~0.2 kB).
CACHE_SIZE = 1024
UNKNOWN_CACHE_SIZE = 256
#: Failed authentications are counted per address under this rate-limit key.
FAILURES_KEY = "auth-failures:"
#: What a connection refused for holding too many WebSockets is told to wait before trying again.
SOCKET_RETRY_SECONDS = 10

#: The address of the client whose WebSocket `connection_init` is being admitted; set by
#: `schema.transport.ws_guard` around Strawberry's `on_ws_connect`, which calls `admit` without one.
CLIENT_ADDRESS: ContextVar[str | None] = ContextVar("sibyl_client_address", default=None)

MISSING_KEY = (
    "An API key is required: send `Authorization: Bearer <key>` (create one with `sibyl keys create`)."
)
INVALID_KEY = "The API key is not valid (unknown, malformed or revoked)."
OVERLONG_KEY = f"The API key is longer than any key Sibyl issues ({KEY_LENGTH} characters)."
KEY_WITHDRAWN = "The API key is no longer valid (revoked or deleted); the connection is closed."


class Refused(Exception):
    """The request may not proceed: an HTTP status, a message for a person, GraphQL error extensions
    (with a machine-readable `code`), any HTTP headers to send, and the close code that refuses a
    WebSocket `connection_init` for the same reason."""

    status = 400
    close_code: CloseCode = CloseCode.FORBIDDEN
    #: The code that Sibyl closed with before it followed the protocol (WS_LEGACY_CLOSE_CODES).
    legacy_close_code: CloseCode = CloseCode.FORBIDDEN
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

    legacy_close_code = CloseCode.LEGACY_MISSING_API_KEY

    def __init__(self) -> None:
        super().__init__(MISSING_KEY)


class InvalidKey(AuthenticationFailed):
    """The key sent is unknown, malformed or revoked."""

    def __init__(self, message: str = INVALID_KEY) -> None:
        super().__init__(message)


class KeyWithdrawn(InvalidKey):
    """An open WebSocket's key was revoked or deleted: the socket is closed with 4403."""

    def __init__(self) -> None:
        super().__init__(KEY_WITHDRAWN)


class RateLimited(Refused):
    """Over a rate limit; `retryAfterSeconds` says when the next request fits. By default the key's
    own limit; `message` names another (failed authentications from one address, open sockets)."""

    status = 429
    close_code = CloseCode.TRY_AGAIN_LATER
    legacy_close_code = CloseCode.LEGACY_RATE_LIMITED

    def __init__(self, decision: RateDecision, message: str | None = None) -> None:
        super().__init__(
            message
            or f"Rate limit of {decision.limit} requests per minute (bursts of {decision.burst}) "
            f"exceeded for this API key; retry in {decision.retry_after_seconds} s."
        )
        self.extensions = {
            "code": ErrorCode.RATE_LIMITED.name,
            "retryAfterSeconds": decision.retry_after_seconds,
            "limit": decision.limit,
            "burst": decision.burst,
        }
        self.headers = [(b"retry-after", str(decision.retry_after_seconds).encode())]


def too_many_failures(decision: RateDecision) -> RateLimited:
    """The refusal of an address that has failed to authenticate too often lately."""
    return RateLimited(
        decision,
        f"Too many failed authentications from this address: at most {decision.limit} a minute "
        f"(bursts of {decision.burst}); retry in {decision.retry_after_seconds} s.",
    )


def too_many_sockets(limit: int) -> RateLimited:
    """The refusal of a WebSocket whose key already holds `limit` open ones (close 1013, try again later)."""
    decision = RateDecision(
        allowed=False, remaining=0, retry_after_seconds=SOCKET_RETRY_SECONDS, limit=limit, burst=limit
    )
    return RateLimited(
        decision,
        f"This API key already holds {limit} open WebSockets (MAX_WEBSOCKETS_PER_KEY); close one, "
        f"or retry in {SOCKET_RETRY_SECONDS} s.",
    )


def log_refusal(refusal: Refused, transport: str) -> None:
    """One INFO line per refused request: a client's mistake, not the server's (no traceback)."""
    logger.info("refused %s: %s %s", transport, refusal.code.name, one_line(str(refusal)))


async def admit(services: Services, key: str | None, client: str | None = None) -> Principal:
    """The principal `key` acts for, with this request counted against its rate limit.

    Args:
        services: The process's services.
        key: The key presented, if any.
        client: The caller's address, which failed authentications are counted against (default:
            `CLIENT_ADDRESS`; None and unset: not counted).

    Raises:
        AuthenticationFailed: no usable key (and unauthenticated use is off).
        RateLimited: the key has no requests left for now, or the address no failures.
    """
    principal = await services.authenticator.principal(
        key, client if client is not None else CLIENT_ADDRESS.get()
    )
    decision = await services.rate_limiter.hit(principal.rate_limit_key)
    if not decision.allowed:
        raise RateLimited(decision)
    return principal


def client_address(scope: Scope) -> str | None:
    """The address an HTTP request or WebSocket comes from (as the server sees it), if known."""
    client = scope.get("client")
    return str(client[0]) if client else None


_Answer = TypeVar("_Answer")


class Authenticator:
    """Turns a presented key (or none) into a `Principal`, caching answers briefly and counting
    failures per client address (see the module's docstring for the bounds)."""

    def __init__(
        self,
        session_factory: SessionFactory,
        *,
        allow_unauthenticated: bool,
        cache_seconds: float = CACHE_SECONDS,
        failures: RateLimiter | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Bind the authenticator to the database.

        Args:
            session_factory: Where keys are looked up.
            allow_unauthenticated: Whether a request without a key acts for the `local` organisation.
            cache_seconds: How long an answer from the database is trusted.
            failures: Counts failed authentications per address (None: not counted).
            clock: Monotonic seconds, for the cache's lifetimes.
        """
        self._session_factory = session_factory
        self.allow_unauthenticated = allow_unauthenticated
        self.cache_seconds = cache_seconds
        self._failures = failures
        self._clock = clock
        self._known: OrderedDict[str, tuple[float, Principal]] = OrderedDict()
        self._unknown: OrderedDict[str, tuple[float, None]] = OrderedDict()
        self._lookups: dict[str, asyncio.Future[Principal | None]] = {}
        self.sockets = OpenSockets()

    @property
    def cached(self) -> tuple[int, int]:
        """How many keys are cached: (known, unknown to the database)."""
        return len(self._known), len(self._unknown)

    async def principal(self, key: str | None, client: str | None = None) -> Principal:
        """The principal for `key`.

        Raises:
            AuthenticationFailed: there is none to act for.
            RateLimited: `client` has failed to authenticate too often lately.
        """
        if not key:
            if self.allow_unauthenticated:
                return Principal(organisation_id=LOCAL_ORGANISATION_ID)
            raise MissingKey
        if len(key) > KEY_LENGTH:
            raise await self._failed(client, InvalidKey(OVERLONG_KEY))
        known = self._fresh(self._known, key)
        if known is not None:
            return known[1]
        if is_well_formed(key) and self._fresh(self._unknown, key) is None:
            await self._refuse_failing(client)
            principal = await self._lookup(key)
            if principal is not None:
                return principal
        raise await self._failed(client, InvalidKey())

    def seconds_until_recheck(self, key: str) -> float:
        """Until the cached answer for `key` expires (the cache lifetime if there is none)."""
        known = self._known.get(key)
        if known is None:
            return self.cache_seconds
        return max(0.0, known[0] - self._clock())

    async def _refuse_failing(self, client: str | None) -> None:
        """Raise `RateLimited` when `client` has no failures left: its keys are not looked up."""
        if client is None or self._failures is None:
            return
        decision = await self._failures.check(FAILURES_KEY + client)
        if not decision.allowed:
            raise too_many_failures(decision)

    async def _failed(self, client: str | None, refusal: Refused) -> Refused:
        """`refusal`, counted against `client`; or `RateLimited` if that was one failure too many."""
        if client is None or self._failures is None:
            return refusal
        decision = await self._failures.hit(FAILURES_KEY + client)
        return refusal if decision.allowed else too_many_failures(decision)

    def _fresh(
        self, cache: OrderedDict[str, tuple[float, _Answer]], key: str
    ) -> tuple[float, _Answer] | None:
        entry = cache.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            del cache[key]
            return None
        cache.move_to_end(key)
        return entry

    async def _lookup(self, key: str) -> Principal | None:
        """Ask the database, once for all callers that ask about `key` at the same time (the
        WebSockets of one key re-check together when its cached answer expires)."""
        lookup = self._lookups.get(key)
        if lookup is None:
            lookup = asyncio.ensure_future(self._load(key))
            self._lookups[key] = lookup
            lookup.add_done_callback(lambda done: self._looked_up(key, done))
        return await asyncio.shield(lookup)

    def _looked_up(self, key: str, lookup: asyncio.Future[Principal | None]) -> None:
        self._lookups.pop(key, None)
        if not lookup.cancelled():
            lookup.exception()  # retrieved: every waiter has been told

    async def _load(self, key: str) -> Principal | None:
        async with self._session_factory() as session:
            principal = await authenticate(session, key)
        expires = self._clock() + self.cache_seconds
        if principal is None:
            _remember(self._unknown, key, (expires, None), UNKNOWN_CACHE_SIZE, self._clock())
        else:
            _remember(self._known, key, (expires, principal), CACHE_SIZE, self._clock())
        return principal


def _remember(
    cache: OrderedDict[str, tuple[float, _Answer]],
    key: str,
    entry: tuple[float, _Answer],
    size: int,
    now: float,
) -> None:
    """Add `entry`, then drop expired entries and the least recently used beyond `size`."""
    cache[key] = entry
    cache.move_to_end(key)
    while cache and (len(cache) > size or next(iter(cache.values()))[0] <= now):
        cache.popitem(last=False)


class OpenSockets:
    """How many WebSockets each key holds open in this process (keys that hold none are dropped)."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()

    def take(self, key: str, limit: int) -> bool:
        """Count one more socket for `key`, unless it holds `limit` already (0: no limit)."""
        if limit and self._counts[key] >= limit:
            return False
        self._counts[key] += 1
        return True

    def give_back(self, key: str) -> None:
        self._counts[key] -= 1
        if self._counts[key] <= 0:
            del self._counts[key]

    def held(self, key: str) -> int:
        return self._counts.get(key, 0)


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
