"""Checks `sibyl run` makes before it starts anything, so a bad start fails in seconds with one line
per problem instead of a banner followed by minutes of restarts and tracebacks.

- the API port (and a fixed embedded Redis port) can be bound: nothing else listens there;
- a configured DATABASE_URL and REDIS_URL answer (short timeouts; passwords masked in messages);
- settings that do not validate are named by their environment variable (`settings_problems`).
"""

from __future__ import annotations

import contextlib
import errno
import socket
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from app.config import Settings, libpq_url

CONNECT_SECONDS = 3
README_SETTINGS = "see the settings table under Configuration in README.md"
#: Settings whose values are not echoed back in messages.
SECRET_WORDS = ("key", "password", "secret", "token")


def mask_url(url: str) -> str:
    """`url` with its password replaced by `***` (user, host, port and path kept)."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def port_problem(host: str, port: int, variable: str) -> str | None:
    """Why `port` cannot be listened on at `host` (None when it can): a bind test, as uvicorn binds
    (SO_REUSEADDR, so a socket of a previous run in TIME_WAIT does not count)."""
    if port == 0:
        return None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        return f"cannot listen on {host}:{port} ({variable}): {exc.strerror}"
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} is in use ({variable}): another program listens there; "
                    f"stop it or set {variable}"
                )
            return f"cannot listen on {host}:{port} ({variable}): {exc.strerror}"
    return None


def first_line(exc: BaseException) -> str:
    """An exception's message as one line, for one-line refusals."""
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0].strip()


def database_problem(url: str) -> str | None:
    """Why DATABASE_URL cannot be used (None when a connection opens within a few seconds)."""
    import psycopg

    try:
        with psycopg.connect(libpq_url(url), connect_timeout=CONNECT_SECONDS):
            return None
    except (psycopg.Error, ValueError, OSError) as exc:
        return f"cannot connect to DATABASE_URL={mask_url(url)}: {first_line(exc)}"


def redis_problem(url: str) -> str | None:
    """Why REDIS_URL cannot be used (None when it answers PING within a few seconds)."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        client = Redis.from_url(
            url,
            socket_connect_timeout=CONNECT_SECONDS,
            socket_timeout=CONNECT_SECONDS,
            retry_on_timeout=False,
        )
    except ValueError as exc:
        return f"cannot use REDIS_URL={mask_url(url)}: {first_line(exc)}"
    try:
        client.ping()
    except (RedisError, OSError) as exc:
        return f"cannot connect to REDIS_URL={mask_url(url)}: {first_line(exc)}"
    finally:
        with contextlib.suppress(Exception):
            client.close()
    return None


def startup_problems(settings: Settings) -> list[str]:
    """Every reason `sibyl run` cannot start with `settings`, one line each (empty: go ahead)."""
    problems = [port_problem(settings.api_host, settings.api_port, "API_PORT")]
    if not settings.redis_url:
        problems.append(port_problem("127.0.0.1", settings.embedded_redis_port, "EMBEDDED_REDIS_PORT"))
    if settings.database_url:
        problems.append(database_problem(settings.database_url))
    if settings.redis_url:
        problems.append(redis_problem(settings.redis_url))
    return [problem for problem in problems if problem]


def _shown_value(variable: str, value: Any) -> str:
    if any(word in variable.lower() for word in SECRET_WORDS):
        return "***"
    text = str(value)
    return mask_url(text) if "://" in text else text


def _message(error: Mapping[str, Any]) -> str:
    message = str(error.get("msg", "invalid"))
    message = message.replace("Input should be", "must be").replace("Value error, ", "")
    return message.split(", unable to parse", 1)[0]


def settings_problems(error: ValidationError) -> list[str]:
    """One line per bad setting, `API_PORT=abc: must be a valid integer`, then where they are described."""
    lines: list[str] = []
    for item in error.errors():
        location: Iterable[Any] = item.get("loc") or ()
        names = [str(part) for part in location if isinstance(part, str)]
        if not names:
            lines.append(f"invalid settings: {_message(item)}")
            continue
        variable = names[0].upper()
        lines.append(f"{variable}={_shown_value(variable, item.get('input'))}: {_message(item)}")
    lines.append(README_SETTINGS)
    return lines
