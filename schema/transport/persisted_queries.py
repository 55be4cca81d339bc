"""Automatic persisted queries (APQ), as Apollo defines them.

A client sends `extensions: {"persistedQuery": {"version": 1, "sha256Hash": "<hex>"}}`:

* with only the hash: the server runs the document registered under that hash, or answers the
  error `PersistedQueryNotFound` (code `PERSISTED_QUERY_NOT_FOUND`), and the client retries with the
  full `query` and the hash;
* with `query` and hash: the server checks that the hash is the SHA-256 of the query (else the error
  `provided sha does not match query`, code `PERSISTED_QUERY_HASH_MISMATCH`), registers it and runs
  it. Any other `version` is refused (`PERSISTED_QUERY_NOT_SUPPORTED`).

Registered documents live in Redis per organisation (an organisation's dashboards never fill, read
or evict another's), each with a TTL that a hit refreshes, and at most `max_entries` per
organisation: the least recently used are evicted first (a sorted set of last-use times). A Redis
failure degrades to a miss, so the client simply sends the full document.

Works for HTTP requests (`SibylGraphQL.execute_single`) and for graphql-transport-ws `subscribe`
messages (`schema.transport.ws_guard.TransportWSHandler`).
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphql import GraphQLError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from schema.errors import ErrorCode

if TYPE_CHECKING:
    from schema.context import Context

logger = logging.getLogger(__name__)

APQ_VERSION = 1
NOT_FOUND = ErrorCode.PERSISTED_QUERY_NOT_FOUND.name
NOT_SUPPORTED = ErrorCode.PERSISTED_QUERY_NOT_SUPPORTED.name
HASH_MISMATCH = ErrorCode.PERSISTED_QUERY_HASH_MISMATCH.name
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class PersistedQueryProblem(Exception):
    """The request's persisted query cannot be used; `error` is what the client receives."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def error(self) -> GraphQLError:
        return GraphQLError(str(self), extensions={"code": self.code})


def document_hash(query: str) -> str:
    """The APQ hash of a document: SHA-256 of its UTF-8 text, lower-case hex."""
    return hashlib.sha256(query.encode()).hexdigest()


@dataclass
class PersistedQueryStore:
    """Registered documents in Redis, per organisation, bounded by count and age."""

    redis: Redis
    max_entries: int
    ttl_seconds: int

    def _keys(self, organisation: uuid.UUID | None, sha: str) -> tuple[str, str]:
        scope = str(organisation or "public")
        return f"sibyl:apq:{scope}:doc:{sha}", f"sibyl:apq:{scope}:lru"

    async def lookup(self, organisation: uuid.UUID | None, sha: str) -> str | None:
        """The document registered under `sha` for the organisation (its TTL refreshed), or None."""
        doc_key, lru_key = self._keys(organisation, sha)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.getex(doc_key, ex=self.ttl_seconds)
                pipe.zadd(lru_key, {sha: time.time()}, xx=True)
                found, _ = await pipe.execute()
        except (RedisError, OSError) as exc:
            logger.warning("persisted query lookup failed (treated as a miss): %s", exc)
            return None
        return found.decode() if isinstance(found, bytes) else found

    async def register(self, organisation: uuid.UUID | None, sha: str, query: str) -> None:
        """Store `query` under `sha`, evicting the organisation's least recently used beyond the bound."""
        doc_key, lru_key = self._keys(organisation, sha)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(doc_key, query, ex=self.ttl_seconds)
                pipe.zadd(lru_key, {sha: time.time()})
                pipe.expire(lru_key, self.ttl_seconds)
                pipe.zcard(lru_key)
                *_, count = await pipe.execute()
                if count > self.max_entries:
                    evicted = await self.redis.zpopmin(lru_key, count - self.max_entries)
                    stale = [self._keys(organisation, _text(member))[0] for member, _ in evicted]
                    if stale:
                        await self.redis.delete(*stale)
        except (RedisError, OSError) as exc:
            logger.warning("persisted query not registered (the client will resend it): %s", exc)


async def resolve_query(
    store: PersistedQueryStore,
    organisation: uuid.UUID | None,
    query: str | None,
    extensions: dict[str, Any] | None,
) -> str | None:
    """The document to run: `query` itself, or the one its persisted-query hash names.

    A blank `query` beside a hash is a lookup, as an absent one is: graphql-transport-ws requires
    `payload.query` to be a string, so its clients (the reference `graphql-ws` among them) send `""`
    to ask by hash alone.

    Raises:
        PersistedQueryProblem: unknown hash, hash mismatch or unsupported version.
    """
    persisted = (extensions or {}).get("persistedQuery")
    if persisted is None:
        return query
    if not isinstance(persisted, dict) or persisted.get("version") != APQ_VERSION:
        raise PersistedQueryProblem("PersistedQueryNotSupported", NOT_SUPPORTED)
    sha = persisted.get("sha256Hash")
    if not isinstance(sha, str) or not _SHA256.match(sha):
        raise PersistedQueryProblem(
            "`persistedQuery.sha256Hash` must be 64 lower-case hex digits.", NOT_SUPPORTED
        )
    if query is not None and query.strip():
        if document_hash(query) != sha:
            raise PersistedQueryProblem("provided sha does not match query", HASH_MISMATCH)
        await store.register(organisation, sha, query)
        return query
    found = await store.lookup(organisation, sha)
    if found is None:
        raise PersistedQueryProblem("PersistedQueryNotFound", NOT_FOUND)
    return found


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def persisted_query(
    context: Context, query: str | None, extensions: dict[str, Any] | None
) -> str | None:
    """`resolve_query` for a request of `context`'s organisation, with the app's settings."""
    if not extensions or "persistedQuery" not in extensions:
        return query
    settings = context.services.settings
    store = PersistedQueryStore(
        context.services.arq, settings.persisted_query_max_entries, settings.persisted_query_ttl_seconds
    )
    organisation = context.principal.organisation_id if context.principal else None
    return await resolve_query(store, organisation, query, extensions)
