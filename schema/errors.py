"""The error contract: one list of codes for every GraphQL error Sibyl returns, and one for the
close codes of refused WebSocket connections.

Every error a resolver, a limit or a guard raises on purpose is built by `client_error` with an
`ErrorCode`; errors graphql-core or Strawberry report themselves (syntax, validation, malformed
global ids) get theirs in `SibylSchema.process_errors`, and unexpected failures are masked as
INTERNAL_SERVER_ERROR, except two kinds the client can act on: a lost, refused or unanswered
database or Redis connection (SERVICE_UNAVAILABLE: retry shortly) and a full disk (STORAGE_FULL),
told apart by `app.db.outages` and `app.redis_pool`. Expected outcomes of mutations are not errors
at all: they are typed result members with their own `code` enums (an upload that is not a PDF
is an answer the client shows, not a failure of the request).

`ErrorCode` is part of the schema (GraphiQL shows each code's description), so clients can read
the list where they read the rest of the API.
"""

from __future__ import annotations

import enum
import json
import logging
import re
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLSyntaxError
from strawberry.extensions import MaskErrors
from strawberry.relay import GlobalIDValueError
from strawberry.types import ExecutionContext

from app.db.outages import is_disk_full_error, is_transient_db_error
from app.log_setup import current_request_id
from app.redis_pool import is_redis_outage
from app.services.failures import failure_summary
from schema import fast_execution

logger = logging.getLogger(__name__)

#: Longest client-supplied text (an error message quoting an argument) that goes into one log line.
MAX_LOGGED_CHARS = 300
#: A WebSocket close frame's reason may hold at most 123 bytes (RFC 6455 §5.5).
MAX_CLOSE_REASON_BYTES = 123


@strawberry.enum(
    description="The `extensions.code` of every GraphQL error the API returns. All but "
    "INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE and STORAGE_FULL are the client's to fix; the message "
    "says how."
)
class ErrorCode(enum.Enum):
    """The codes, one per way a request can fail; a member's name is its code (`code.name`)."""

    UNAUTHENTICATED = strawberry.enum_value(
        "UNAUTHENTICATED",
        description="No usable API key: none sent, or unknown, malformed or revoked (HTTP 401).",
    )
    RATE_LIMITED = strawberry.enum_value(
        "RATE_LIMITED",
        description="The API key is over its rate limit, the client's address has failed to "
        "authenticate too often, or the key holds too many open WebSockets; "
        "`extensions.retryAfterSeconds` says when to try again (HTTP 429 with `Retry-After`; "
        "WebSocket close 1013).",
    )
    QUERY_TOO_DEEP = strawberry.enum_value(
        "QUERY_TOO_DEEP",
        description="The operation nests deeper than MAX_QUERY_DEPTH; `extensions.depth` and "
        "`extensions.limit` give the figures. Nothing ran.",
    )
    QUERY_TOO_COSTLY = strawberry.enum_value(
        "QUERY_TOO_COSTLY",
        description="The operation costs more than MAX_QUERY_COST (each field 1, a list's selection "
        "times its `first`); `extensions.cost` and `extensions.limit` give the figures. Nothing ran.",
    )
    QUERY_TOO_LARGE = strawberry.enum_value(
        "QUERY_TOO_LARGE",
        description="The document has more tokens than MAX_QUERY_TOKENS (names, punctuation and values "
        "each count one); `extensions.limit` gives it. Parsing stopped there and nothing ran.",
    )
    TOO_MANY_ALIASES = strawberry.enum_value(
        "TOO_MANY_ALIASES",
        description="The operation uses more aliases than MAX_QUERY_ALIASES (each alias of a field runs it "
        "again); `extensions.aliases` and `extensions.limit` give the figures. Nothing ran.",
    )
    NOT_FOUND = strawberry.enum_value(
        "NOT_FOUND",
        description="The object an argument names does not exist or belongs to another organisation "
        "(subscriptions to an unknown report).",
    )
    INVALID_ID = strawberry.enum_value(
        "INVALID_ID",
        description="An id is not a global id this API issued (not base64 `Type:id`, or an unknown type); "
        "`extensions.argument` names the argument.",
    )
    PAGE_SIZE_OUT_OF_RANGE = strawberry.enum_value(
        "PAGE_SIZE_OUT_OF_RANGE",
        description="`first` is outside 0 and the field's maximum; `extensions.maximum` gives it.",
    )
    INVALID_CURSOR = strawberry.enum_value(
        "INVALID_CURSOR",
        description="`after` is not a cursor this API issued for this list (or for this `orderBy`).",
    )
    INVALID_ARGUMENT = strawberry.enum_value(
        "INVALID_ARGUMENT",
        description="Another argument is outside its allowed values (e.g. a negative `afterSequence`, or "
        "both `afterSequence` and its deprecated name `afterId`); `extensions.argument` names it.",
    )
    GRAPHQL_PARSE_FAILED = strawberry.enum_value(
        "GRAPHQL_PARSE_FAILED", description="The document is not valid GraphQL syntax."
    )
    GRAPHQL_VALIDATION_FAILED = strawberry.enum_value(
        "GRAPHQL_VALIDATION_FAILED",
        description="The document does not fit the schema (unknown field, wrong argument or variable "
        "type, an Int beyond 32 bits).",
    )
    BAD_REQUEST = strawberry.enum_value(
        "BAD_REQUEST",
        description="The HTTP request is not a GraphQL request: a body that is not a UTF-8 JSON object, "
        "JSON nested too deeply, no `query`, an unsupported content type, a mutation over GET, a "
        "subscription over HTTP (use WebSocket), a NUL character or a lone UTF-16 surrogate in the "
        "request or its path, a multipart `map` that does not fit `operations` (HTTP 400).",
    )
    PREFLIGHT_REQUIRED = strawberry.enum_value(
        "PREFLIGHT_REQUIRED",
        description="A multipart request (upload) lacks the `Apollo-Require-Preflight` header (HTTP 400).",
    )
    REQUEST_TOO_LARGE = strawberry.enum_value(
        "REQUEST_TOO_LARGE",
        description="The request body is larger than MAX_REQUEST_BODY_BYTES (a JSON request) or far "
        "beyond the upload limits (a multipart upload), or its request line and headers are larger "
        "than MAX_REQUEST_HEADER_BYTES; the rest was not read (HTTP 413, or 431 for the headers).",
    )
    REQUEST_TIMEOUT = strawberry.enum_value(
        "REQUEST_TIMEOUT",
        description="The request's headers or body did not arrive within REQUEST_HEADER_TIMEOUT_SECONDS "
        "or REQUEST_BODY_TIMEOUT_SECONDS; the connection is closed (HTTP 408).",
    )
    PERSISTED_QUERY_NOT_FOUND = strawberry.enum_value(
        "PERSISTED_QUERY_NOT_FOUND",
        description="An automatic persisted query's hash is not registered for this organisation (or "
        "was evicted); send it again with its `query` to register it (message `PersistedQueryNotFound`).",
    )
    PERSISTED_QUERY_HASH_MISMATCH = strawberry.enum_value(
        "PERSISTED_QUERY_HASH_MISMATCH",
        description="`extensions.persistedQuery.sha256Hash` is not the SHA-256 of the `query` sent.",
    )
    PERSISTED_QUERY_NOT_SUPPORTED = strawberry.enum_value(
        "PERSISTED_QUERY_NOT_SUPPORTED",
        description="The persisted query's `version` is not 1, or its hash is not 64 lower-case hex digits.",
    )
    SERVICE_UNAVAILABLE = strawberry.enum_value(
        "SERVICE_UNAVAILABLE",
        description="The database or the job queue (Redis) is unreachable or not answering for now "
        "(restarting, overloaded, or the connection was lost); nothing is wrong with the request. Retry "
        "shortly, with backoff. Running analyses resume on their own.",
    )
    STORAGE_FULL = strawberry.enum_value(
        "STORAGE_FULL",
        description="The server is out of disk space, so nothing could be stored; retrying helps only "
        "once an operator frees space.",
    )
    INTERNAL_SERVER_ERROR = strawberry.enum_value(
        "INTERNAL_SERVER_ERROR",
        description="Something failed on the server; the message is generic and the server log has the "
        "details. Retrying may help.",
    )


class CloseCode(enum.IntEnum):
    """Close codes of a WebSocket whose `connection_init` is refused, or whose key is revoked or
    deleted while it is open; the close reason is `<ErrorCode>: <message>`, the stable contract.

    They are the GraphQL over WebSocket protocol's own: clients such as the reference `graphql-ws`
    retry 4403 and 1013 with backoff, and give up on 4401 and 4429, which the protocol keeps for
    "subscribe before acknowledgement" and "too many `connection_init`s"."""

    FORBIDDEN = 4403
    """No key in the `connection_init` payload, or a key that is unknown, malformed or revoked, or was
    revoked or deleted while the connection was open (UNAUTHENTICATED); the protocol's refusal of a
    connection."""
    TRY_AGAIN_LATER = 1013
    """The key is over its rate limit, the address has failed to authenticate too often, or the key
    holds MAX_WEBSOCKETS_PER_KEY connections; the reason says `retry in N s` (RATE_LIMITED). The
    WebSocket standard's own code for "try again later"."""
    LEGACY_MISSING_API_KEY = 4401
    """Deprecated: no key, under WS_LEGACY_CLOSE_CODES."""
    LEGACY_RATE_LIMITED = 4429
    """Deprecated: rate limited, under WS_LEGACY_CLOSE_CODES."""


def error_document(message: str, extensions: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `{"errors": [...]}` body of a refusal made outside GraphQL execution (the HTTP
    middleware, the page-image route), shaped like an execution's errors."""
    error: dict[str, Any] = {"message": message}
    extensions = with_request_id(extensions or {})
    if extensions:
        error["extensions"] = extensions
    return {"errors": [error]}


def with_request_id(extensions: dict[str, Any]) -> dict[str, Any]:
    """`extensions` with the request's id (`schema.transport.request_ids`) when one is being served."""
    request_id = current_request_id()
    return {**extensions, "requestId": request_id} if request_id else extensions


def error_json(message: str, extensions: dict[str, Any] | None = None) -> bytes:
    """`error_document` as a JSON body. Non-ASCII is escaped, so a message quoting the client's
    input encodes even when that input holds a lone UTF-16 surrogate (UTF-8 cannot encode one)."""
    return json.dumps(error_document(message, extensions)).encode()


def client_error(code: ErrorCode, message: str, **extensions: Any) -> GraphQLError:
    """A GraphQL error the client caused, with `extensions.code` and any further figures."""
    return GraphQLError(message, extensions={"code": code.name, **extensions})


def close_reason(code: ErrorCode, message: str) -> str:
    """`<code>: <message>`, cut to what a close frame can carry."""
    reason = f"{code.name}: {message}"
    encoded = reason.encode()
    if len(encoded) <= MAX_CLOSE_REASON_BYTES:
        return reason
    return encoded[: MAX_CLOSE_REASON_BYTES - 3].decode(errors="ignore") + "..."


def one_line(text: str, limit: int = MAX_LOGGED_CHARS) -> str:
    """`text` on one line and at most `limit` characters, safe to log whatever a client sent."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


#: graphql-core's parser stops with this when a document exceeds `max_tokens`.
_TOKEN_LIMIT = re.compile(r"Document contains more than (\d+) tokens")


def _token_limit(error: GraphQLError) -> int | None:
    """The token limit parsing stopped at, or None when the error is a syntax mistake."""
    found = _TOKEN_LIMIT.search(error.message) if isinstance(error, GraphQLSyntaxError) else None
    return int(found.group(1)) if found else None


def is_unexpected(error: GraphQLError) -> bool:
    """A crash rather than an error raised on purpose, a validation error or a bad id: it is masked."""
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError | GlobalIDValueError)


def code_of(error: GraphQLError) -> str | None:
    extensions = error.extensions or {}
    code = extensions.get("code")
    return str(code) if code is not None else None


def assign_code(error: GraphQLError) -> str:
    """The error's code, given first to the errors graphql-core and Strawberry raise without one
    (crashes get theirs when they are masked)."""
    code = code_of(error)
    if code is None:
        limit = _token_limit(error)
        if limit is None:
            code = _inferred_code(error).name
            error.extensions = {**(error.extensions or {}), "code": code}
        else:
            code = ErrorCode.QUERY_TOO_LARGE.name
            error.message = (
                f"The document has more than {limit:,} tokens (MAX_QUERY_TOKENS); parsing stopped there. "
                "Ask for fewer fields, or fewer aliases of the same field."
            )
            error.extensions = {**(error.extensions or {}), "code": code, "limit": limit}
    return code


def _inferred_code(error: GraphQLError) -> ErrorCode:
    if isinstance(error, GraphQLSyntaxError):
        return ErrorCode.GRAPHQL_PARSE_FAILED
    if isinstance(error.original_error, GlobalIDValueError):
        return ErrorCode.INVALID_ID
    return ErrorCode.GRAPHQL_VALIDATION_FAILED


#: What clients are told when the database is unreachable or the disk is full (for any operation).
OUTAGE_MESSAGES = {
    ErrorCode.SERVICE_UNAVAILABLE: "The database is unavailable right now; retry shortly.",
    ErrorCode.STORAGE_FULL: "The server is out of disk space; nothing was stored. Retry once space is freed.",
}
#: SERVICE_UNAVAILABLE's message when Redis (the job queue) is what did not answer.
QUEUE_UNAVAILABLE_MESSAGE = "The job queue is unavailable right now; retry shortly."


def outage_code(exc: BaseException | None) -> ErrorCode | None:
    """SERVICE_UNAVAILABLE or STORAGE_FULL when a crash is really the database being away or the
    disk being full; None for any other failure."""
    if exc is None:
        return None
    if is_disk_full_error(exc):
        return ErrorCode.STORAGE_FULL
    if is_transient_db_error(exc) or is_redis_outage(exc):
        return ErrorCode.SERVICE_UNAVAILABLE
    return None


def outage_message(exc: BaseException | None, code: ErrorCode) -> str:
    """What the client is told for an outage `code`: which service is away, when it is Redis."""
    if exc is not None and is_redis_outage(exc) and not is_transient_db_error(exc):
        return QUEUE_UNAVAILABLE_MESSAGE
    return OUTAGE_MESSAGES[code]


class MaskUnexpectedErrors(MaskErrors):
    """Replaces crashes by "Unexpected error." with the INTERNAL_SERVER_ERROR code, or by what the
    client can do about an outage (`outage_code`)."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=is_unexpected)

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        masked = super().anonymise_error(error)
        code = outage_code(error.original_error) or ErrorCode.INTERNAL_SERVER_ERROR
        if code in OUTAGE_MESSAGES:
            masked.message = outage_message(error.original_error, code)
        masked.extensions = with_request_id({"code": code.name})
        return masked


class SibylSchema(strawberry.Schema):
    """Strawberry's schema with the error contract: every error gets its code, and is logged once.

    Client mistakes are logged at INFO in one line (code, operation, path, message), without a
    traceback or the query text, so a client cannot fill the log with its documents; failures are
    logged at ERROR with their traceback.

    Plain synchronous resolvers get a leaner wrapper than Strawberry's when the shortcuts are
    enabled (`schema.fast_execution.install`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fast_execution.install(self)

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        for error in errors:
            where = _where(error, execution_context)
            original = error.original_error
            outage = outage_code(original) if is_unexpected(error) else None
            if outage is not None and original is not None:
                logger.log(
                    logging.ERROR if outage is ErrorCode.STORAGE_FULL else logging.WARNING,
                    "%s%s: %s",
                    outage.name,
                    where,
                    one_line(failure_summary(original)),  # no SQL, no parameters
                )
            elif is_unexpected(error):
                logger.error(
                    "unexpected error%s: %s", where, one_line(error.message), exc_info=error.original_error
                )
            else:
                code = assign_code(error)
                logger.info("client error %s%s: %s", code, where, one_line(error.message))
            error.extensions = with_request_id(error.extensions or {})


def _where(error: GraphQLError, execution_context: ExecutionContext | None) -> str:
    """` in operation X at a.b.c`, as far as known."""
    parts = []
    name = execution_context.operation_name if execution_context else None
    if name:
        parts.append(f" in operation {one_line(name, 80)}")
    if error.path:
        parts.append(" at " + one_line(".".join(str(key) for key in error.path), 120))
    return "".join(parts)
