"""Exit codes and the one-line message for each expected failure, so scripts can branch on `$?`."""

from __future__ import annotations

from clients.sibyl.errors import (
    AuthenticationError,
    ConfigurationError,
    GraphQLErrors,
    MutationFailed,
    RateLimitedError,
    ServerUnreachable,
    ServiceUnavailable,
    SibylError,
)

EXIT_OK = 0
EXIT_FAILED = 1  # the analysis or parse failed, or the server refused the request
EXIT_USAGE = 2  # bad arguments or input file
EXIT_AUTH = 3
EXIT_UNREACHABLE = 4  # the server could not be reached, or stayed unavailable, through the retries
EXIT_TIMED_OUT = 5  # --timeout ran out; the work continues on the server (not a failure)
EXIT_CANCELLED = 6  # the analysis was cancelled (cancelAnalysis / `sibyl cancel`) while waited for
EXIT_INTERRUPTED = 130


class CommandError(Exception):
    """An expected failure of a command: printed as one line, then the process exits with `exit_code`."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def describe_failure(error: Exception) -> tuple[int, str]:
    """The exit code and message for an exception a command let through."""
    if isinstance(error, CommandError):
        return error.exit_code, str(error)
    if isinstance(error, ConfigurationError):
        return EXIT_USAGE, str(error)
    if isinstance(error, AuthenticationError):
        return EXIT_AUTH, f"authentication failed: {error} (set --api-key or SIBYL_API_KEY)"
    if isinstance(error, ServiceUnavailable):
        return EXIT_UNREACHABLE, f"server unavailable: {error}"
    if isinstance(error, ServerUnreachable):
        return EXIT_UNREACHABLE, f"server unreachable: {error}"
    if isinstance(error, RateLimitedError):
        wait = f"; retry after {error.retry_after:g} s" if error.retry_after is not None else ""
        return EXIT_FAILED, f"rate limited: {error}{wait}"
    if isinstance(error, MutationFailed):
        return EXIT_FAILED, f"{error.typename} {error.code}: {error.message}"
    if isinstance(error, GraphQLErrors):
        return EXIT_FAILED, f"server error: {error}"
    if isinstance(error, SibylError):
        return EXIT_FAILED, str(error)
    raise error
