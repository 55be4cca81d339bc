"""What `sibyl run` prints once everything is up: where to reach Sibyl, the local API key, and an
example client command that works when pasted (right server URL, a `sibyl` that exists)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from app.config import Settings
from clients.sibyl.transport import DEFAULT_URL

#: Addresses a server listens on that a client cannot connect to as such; it connects to localhost.
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
LOCAL_HOST = "127.0.0.1"


def _sibyl_command(which: Callable[[str], str | None] = shutil.which) -> str:
    """How to run the `sibyl` command from here: `sibyl` when it is on PATH, else the script next to
    this Python (`.venv/bin/sibyl` in a checkout whose venv is not activated)."""
    if which("sibyl"):
        return "sibyl"
    script = Path(sys.executable).with_name("sibyl")
    if not script.is_file():
        return f"{sys.executable} -m app.cli"
    relative = os.path.relpath(script)
    return relative if not relative.startswith("..") else str(script)


def local_url(settings: Settings) -> str:
    """The API's base URL as a client on this machine reaches it (a wildcard address is localhost)."""
    host = LOCAL_HOST if settings.api_host in WILDCARD_HOSTS else settings.api_host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.api_port}"


def client_example(
    settings: Settings, api_key: str, which: Callable[[str], str | None] = shutil.which
) -> str:
    """The banner's example command, runnable as printed: it names the server when the clients'
    default URL (port 8000) would not reach this one, and a `sibyl` that exists."""
    url = local_url(settings)
    server = f"SIBYL_API_URL={url} " if url != DEFAULT_URL else ""
    return f"{server}SIBYL_API_KEY={api_key} {_sibyl_command(which)} analyze report.pdf --follow"


def announce(settings: Settings, api_key: str) -> None:
    """Where Sibyl listens, the local API key and a client command that works as printed."""
    base = f"http://{settings.api_host}:{settings.api_port}"
    print(
        f"Sibyl is up: dashboard at {base}/, GraphQL + GraphiQL at {base}/graphql (Ctrl-C stops everything)",
        flush=True,
    )
    print(
        f"local API key (organisation `local`, kept in {settings.data_dir / 'local-api-key'}):\n"
        f"  {api_key}\n"
        f"  send it as the header `Authorization: Bearer <key>`; e.g.\n"
        f"  {client_example(settings, api_key)}",
        flush=True,
    )
    if settings.allow_unauthenticated:
        print("ALLOW_UNAUTHENTICATED is on: requests without a key act for `local`", flush=True)
