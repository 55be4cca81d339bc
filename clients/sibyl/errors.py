"""The client's exceptions: one class per way a call can fail, so callers branch on type, not text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class SibylError(Exception):
    """Base of every error the client raises on purpose."""


class ConfigurationError(SibylError, ValueError):
    """The client was given a setting it cannot use (e.g. a server URL that is not http(s))."""


class ServerUnreachable(SibylError):
    """No answer from the server (refused, DNS, timeout): the API is down or the URL is wrong.

    Attributes:
        maybe_applied: The request may have reached the server before the failure (a dropped
            connection, a read timeout): retrying a mutation could apply it twice.
    """

    def __init__(self, message: str, maybe_applied: bool = False) -> None:
        super().__init__(message)
        self.maybe_applied = maybe_applied


class ServiceUnavailable(ServerUnreachable):
    """The server answered but cannot serve now (GraphQL code `SERVICE_UNAVAILABLE`, or HTTP 502/503/
    504 without a GraphQL body): its database is briefly away or it is restarting. Worth retrying;
    nothing was applied."""


class AuthenticationError(SibylError):
    """The API key is missing or invalid (HTTP 401, WebSocket close 4403, code UNAUTHENTICATED)."""


class RateLimitedError(SibylError):
    """Too many requests (HTTP 429 or WebSocket close 1013), still refused after the client's retries.

    Attributes:
        retry_after: Seconds the server asked to wait, if it said.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class GraphQLErrors(SibylError):
    """The response carried top-level GraphQL `errors` (a bug, a bad query or a server failure).

    Attributes:
        errors: The `errors` list as the server sent it.
    """

    def __init__(self, errors: Sequence[Mapping[str, Any]]) -> None:
        self.errors = [dict(error) for error in errors]
        messages = "; ".join(str(error.get("message", error)) for error in self.errors)
        super().__init__(messages or "GraphQL error")

    @property
    def codes(self) -> list[str]:
        """The `extensions.code` of each error that has one."""
        return [code for error in self.errors if (code := error_code(error))]


class MutationFailed(SibylError):
    """An operation returned a typed `...Error` member of its result union (expected refusal).

    Attributes:
        typename: The error type, e.g. `StartAnalysisError`.
        code: Its enum code, e.g. `NOT_PARSED`.
        field: The input field at fault, if the server named one.
    """

    def __init__(self, typename: str, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.typename = typename
        self.code = code
        self.message = message
        self.field = field


class NotFound(MutationFailed):
    """The report (or other object) does not exist, or belongs to another organisation."""


class WaitTimeout(SibylError):
    """A wait (`wait_for_status`) ran out of time; the work goes on on the server.

    `status` is the report's status when the wait gave up, so a caller can word its own message.
    """

    def __init__(self, message: str, status: str | None = None) -> None:
        super().__init__(message)
        self.status = status


NOT_FOUND_CODES = frozenset({"NOT_FOUND", "REPORT_NOT_FOUND"})
#: The server's code for "retry shortly" (a lost database connection, a restart in progress).
SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"


def error_code(error: Mapping[str, Any]) -> str | None:
    """`extensions.code` of one GraphQL error, if present."""
    extensions = error.get("extensions")
    if isinstance(extensions, Mapping):
        code = extensions.get("code")
        return str(code) if code is not None else None
    return None


def raise_for_errors(errors: Sequence[Mapping[str, Any]]) -> None:
    """Raise the most specific exception for a non-empty GraphQL `errors` list."""
    if not errors:
        return
    codes = {error_code(error) for error in errors}
    message = str(errors[0].get("message", "request refused"))
    if "UNAUTHENTICATED" in codes:
        raise AuthenticationError(message)
    if "RATE_LIMITED" in codes:
        raise RateLimitedError(message, retry_after_from_errors(errors))
    if SERVICE_UNAVAILABLE in codes:
        raise ServiceUnavailable(message)
    raise GraphQLErrors(errors)


def retry_after_from_errors(errors: Sequence[Mapping[str, Any]]) -> float | None:
    """`extensions.retryAfterSeconds` of the first error carrying it."""
    for error in errors:
        extensions = error.get("extensions")
        if isinstance(extensions, Mapping) and extensions.get("retryAfterSeconds") is not None:
            try:
                return float(extensions["retryAfterSeconds"])
            except (TypeError, ValueError):
                return None
    return None


def raise_for_union(result: Mapping[str, Any]) -> None:
    """Raise `MutationFailed` (or `NotFound`) when a union result is its `...Error` member."""
    typename = str(result.get("__typename", ""))
    if not typename.endswith("Error"):
        return
    code = str(result.get("code", ""))
    cls = NotFound if code in NOT_FOUND_CODES else MutationFailed
    raise cls(typename, code, str(result.get("message", code)), result.get("field"))
