"""The media type of a GraphQL answer over HTTP, and its status (the GraphQL-over-HTTP spec).

A client that prefers `application/graphql-response+json` gets it, with statuses it can trust
since an intermediary never answers in that type: a request that did not execute (unparsable JSON
or document, validation, a limit, variables that do not coerce, an unknown persisted query) is 400,
a missing or bad key 401, a rate limit 429, a body too large 413, a dependency away 503 with
`Retry-After`; an operation that ran is 200, field errors or not. Every other client gets
`application/json` with the statuses it always had: 200 for whatever GraphQL answered, run or
not, and the same refusals. Under either type a request that did not execute has no `data` key,
only `errors`.

The choice follows HTTP's rules for `Accept` (RFC 9110): each of the two types takes the `q` of the
most specific range matching it (`application/json` before `application/*` before `*/*`; a
`charset` other than UTF-8 matches nothing), and the higher `q` wins. On a tie a type named
outright beats one reached through a wildcard, and of two named outright the first listed wins
(`application/graphql-response+json, application/json` asks for the former). No `Accept`, only
wildcards (curl's and `fetch`'s `*/*`), or nothing acceptable gets `application/json`: the spec
leaves the first two to the server, and for the last the server may disregard `Accept` rather
than answer 406, which keeps a browser that follows a link to a query answered.
"""

from __future__ import annotations

import enum
from functools import lru_cache

from starlette.datastructures import Headers
from starlette.types import Scope
from strawberry.types import ExecutionResult

from schema.errors import ErrorCode, code_of

#: `Retry-After` of a 503 SERVICE_UNAVAILABLE: the database or Redis is expected back shortly.
OUTAGE_RETRY_AFTER_SECONDS = 5
#: A request error that is not the client's mistake, by code, and its status (others are 400).
_SERVER_SIDE_STATUSES = {
    ErrorCode.SERVICE_UNAVAILABLE.name: 503,
    ErrorCode.STORAGE_FULL.name: 507,
    ErrorCode.INTERNAL_SERVER_ERROR.name: 500,
}
_UTF8 = frozenset({"utf-8", "utf8"})
#: Longest `Accept` value whose answer is cached (browsers send about 150 characters).
MAX_REMEMBERED_ACCEPT = 512


class MediaType(enum.StrEnum):
    """The two media types of a GraphQL answer over HTTP."""

    # The spec's own type: non-2xx statuses come from GraphQL, so the body is always a GraphQL answer.
    GRAPHQL_RESPONSE = "application/graphql-response+json"
    # The legacy type: an answer GraphQL gave is 200 unless refused before GraphQL saw it.
    JSON = "application/json"

    @property
    def content_type(self) -> str:
        """The `Content-Type` header's value (UTF-8 declared for the new type, as the spec asks)."""
        return f"{self.value}; charset=utf-8" if self is MediaType.GRAPHQL_RESPONSE else self.value


def response_media_type(headers: Headers) -> MediaType:
    """The media type answering a request with these headers (see the module docstring)."""
    return negotiate(", ".join(headers.getlist("accept")))


def scope_media_type(scope: Scope) -> MediaType:
    """`response_media_type` of an ASGI request, for middleware answering before any route."""
    return response_media_type(Headers(scope=scope))


def negotiate(accept: str) -> MediaType:
    """The media type an `Accept` header's value asks for (empty when there is none). Clients send
    a handful of distinct short values, remembered; a long one (up to the header limit) is not
    kept."""
    return _remembered(accept) if len(accept) <= MAX_REMEMBERED_ACCEPT else _negotiate(accept)


def _negotiate(accept: str) -> MediaType:
    new, new_explicit, new_order = _preference(accept, MediaType.GRAPHQL_RESPONSE)
    legacy, legacy_explicit, legacy_order = _preference(accept, MediaType.JSON)
    if new != legacy:
        return MediaType.GRAPHQL_RESPONSE if new > legacy else MediaType.JSON
    if new > 0 and new_explicit and (not legacy_explicit or new_order < legacy_order):
        return MediaType.GRAPHQL_RESPONSE
    return MediaType.JSON


_remembered = lru_cache(maxsize=256)(_negotiate)


def _preference(accept: str, media_type: MediaType) -> tuple[float, bool, int]:
    """`media_type`'s `q` in `accept`, whether a range names it outright, and that range's position."""
    kind = media_type.value.partition("/")[0]
    specificities = {media_type.value: 3, f"{kind}/*": 2, "*/*": 1}
    best: tuple[int, float, int] = (0, 0.0, 0)  # specificity, q, position
    for position, media_range in enumerate(accept.split(",")):
        name, *params = (part.strip() for part in media_range.split(";"))
        specificity = specificities.get(name.lower(), 0)
        if specificity > best[0]:
            q = _quality(params)
            if q is not None:
                best = (specificity, q, position)
    return best[1], best[0] == 3, best[2]


def _quality(params: list[str]) -> float | None:
    """A range's `q` (1 when absent); None when the range cannot match (a charset other than
    UTF-8, a `q` that is not a number between 0 and 1)."""
    q = 1.0
    for param in params:
        key, _, value = param.partition("=")
        key, value = key.strip().lower(), value.strip().strip('"').lower()
        if key == "charset" and value not in _UTF8:
            return None
        if key == "q":
            try:
                q = float(value)
            except ValueError:
                return None
            if not 0 <= q <= 1:
                return None
    return q


def is_request_error(result: ExecutionResult) -> bool:
    """Whether the operation never executed: no data, and no error from a field (which would have
    a path). Parsing, validation, limits, variable coercion and persisted-query misses stop there."""
    errors = result.errors or []
    return result.data is None and bool(errors) and all(error.path is None for error in errors)


def result_status(result: ExecutionResult) -> int:
    """The status of a GraphQL answer under `application/graphql-response+json`: a request error is
    400, or 5xx when the server failed (SERVICE_UNAVAILABLE 503); an operation that ran is 200,
    except one that produced no data because a dependency is away (503)."""
    errors = result.errors or []
    if is_request_error(result):
        return _SERVER_SIDE_STATUSES.get(code_of(errors[0]) or "", 400)
    unavailable = ErrorCode.SERVICE_UNAVAILABLE.name
    if result.data is None and errors and all(code_of(error) == unavailable for error in errors):
        return 503
    return 200


def status_headers(status: int) -> dict[str, str]:
    """The headers a status brings: `Retry-After` on 503."""
    return {"retry-after": str(OUTAGE_RETRY_AFTER_SECONDS)} if status == 503 else {}
