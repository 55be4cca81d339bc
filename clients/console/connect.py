"""The API client a command talks through, from its command-line options."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

from clients.sibyl.client import SibylClient
from clients.sibyl.errors import ServiceUnavailable, SibylError
from clients.sibyl.transport import RetryListener

#: How long commands keep retrying a server that is unreachable or unavailable (`--retry-seconds`).
DEFAULT_RETRY_SECONDS = 30.0
RETRY_ENV = "SIBYL_RETRY_SECONDS"
#: A retry notice at most this often, so an outage is one or a few lines, not one per attempt.
NOTICE_EVERY_SECONDS = 5.0


def default_retry_seconds() -> float:
    """`SIBYL_RETRY_SECONDS` if it is a number of seconds, else 30."""
    try:
        return max(0.0, float(os.environ.get(RETRY_ENV) or DEFAULT_RETRY_SECONDS))
    except ValueError:
        return DEFAULT_RETRY_SECONDS


def retry_notice(write: Callable[[str], None], retry_seconds: float) -> RetryListener:
    """A listener that tells the user the command is waiting for the server, and why."""
    last = float("-inf")

    def notice(error: SibylError, wait: float) -> None:
        nonlocal last
        if time.monotonic() - last < NOTICE_EVERY_SECONDS:
            return
        last = time.monotonic()
        what = "server unavailable" if isinstance(error, ServiceUnavailable) else "server unreachable"
        write(f"{'warning'.ljust(12)} {what} ({error}); retrying for up to {retry_seconds:g} s")

    return notice


def _stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def client_for(args: argparse.Namespace, write: Callable[[str], None] = _stderr_line) -> SibylClient:
    """A client for `--server` and `--api-key`, with persisted queries unless turned off, retrying
    an unreachable or unavailable server for `--retry-seconds` (telling the user through `write`)."""
    retry_seconds = getattr(args, "retry_seconds", None)
    retry_seconds = default_retry_seconds() if retry_seconds is None else retry_seconds
    return SibylClient(
        args.server,
        args.api_key,
        persisted_queries=getattr(args, "persisted_queries", True),
        retry_seconds=retry_seconds,
        on_retry=retry_notice(write, retry_seconds),
    )
