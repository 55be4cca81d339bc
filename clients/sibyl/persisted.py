"""Automatic persisted queries (APQ) on the client side, as Apollo defines them.

A request first carries only the SHA-256 of its document (`extensions.persistedQuery`); a server
that knows the hash (for this organisation) runs it, one that does not answers
`PERSISTED_QUERY_NOT_FOUND` and the client resends the full document with the hash, which
registers it. A dashboard's handful of documents are therefore sent in full once, and after that
each request carries a 64-character hash instead of a multi-kilobyte document. A server that
answers `PERSISTED_QUERY_NOT_SUPPORTED` gets full documents from then on.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from clients.sibyl.errors import error_code

APQ_VERSION = 1
NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"


@functools.lru_cache(maxsize=256)
def document_hash(query: str) -> str:
    """SHA-256 of the document's UTF-8 text, lower-case hex (the client's few documents are cached)."""
    return hashlib.sha256(query.encode()).hexdigest()


def persisted_extension(query: str) -> dict[str, Any]:
    """The request `extensions` naming `query` by its hash."""
    return {"persistedQuery": {"version": APQ_VERSION, "sha256Hash": document_hash(query)}}


def request_body(
    query: str, variables: Mapping[str, Any], *, send_document: bool, persisted: bool
) -> dict[str, Any]:
    """A GraphQL request body: the hash only, the document with its hash, or the plain document."""
    body: dict[str, Any] = {"variables": dict(variables)}
    if send_document or not persisted:
        body["query"] = query
    if persisted:
        body["extensions"] = persisted_extension(query)
    return body


def _codes(errors: Sequence[Mapping[str, Any]]) -> set[str]:
    return {code for error in errors if (code := error_code(error))}


def wants_document(errors: Sequence[Mapping[str, Any]]) -> bool:
    """The server does not know the hash: resend with the document."""
    return NOT_FOUND in _codes(errors)


def not_supported(errors: Sequence[Mapping[str, Any]]) -> bool:
    """The server does not do persisted queries: send plain documents."""
    return NOT_SUPPORTED in _codes(errors)
