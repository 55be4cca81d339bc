"""`sibyl run`: embedded services (when no URLs are set), migrations, then the API and a worker.

The API (uvicorn) and the ARQ worker run as separate child processes in their own sessions, so
Ctrl-C reaches only this supervisor, which stops them in order: API and worker first, then Redis,
then Postgres.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from types import FrameType

from app.config import Settings
from app.db.migrate import upgrade
from app.db.session import create_engine, create_session_factory
from app.embedded.postgres import start_postgres
from app.embedded.redis import start_redis
from app.organisations.local import local_api_key

EMBEDDED_DATABASE = "sibyl"
#: Per-message deflate costs more CPU than it saves bytes on small event messages over fast links.
UVICORN_WS_OPTIONS = ("--ws-per-message-deflate", "false")
CHILD_STOP_SECONDS = 15


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def provide_services(
    settings: Settings, stack: ExitStack, say: Callable[[str], None] = print
) -> dict[str, str]:
    """Environment variables pointing at Postgres and Redis, starting embedded ones where unset."""
    env = {"DATABASE_URL": provide_database(settings, stack, say)}
    if settings.redis_url:
        env["REDIS_URL"] = settings.redis_url
    else:
        redis = start_redis(settings.data_dir / "redis", settings.embedded_redis_port or None)
        stack.callback(redis.stop)
        env["REDIS_URL"] = redis.url
        say(f"embedded Redis (valkey) at {redis.url}, data in {settings.data_dir / 'redis'}")
    return env


def provide_database(settings: Settings, stack: ExitStack, say: Callable[[str], None] = print) -> str:
    """DATABASE_URL, or the embedded server's URL (started if needed, and then stopped on exit)."""
    if settings.database_url:
        return settings.database_url
    data_dir = settings.data_dir / "postgres"
    already_running = (data_dir / "postmaster.pid").exists()
    postgres = start_postgres(data_dir)
    if not already_running:
        stack.callback(postgres.stop)
    postgres.ensure_database(EMBEDDED_DATABASE)
    say(f"embedded Postgres (pgvector) data in {data_dir}")
    return postgres.url(EMBEDDED_DATABASE)


def _spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(args, env=env, start_new_session=True, stdin=subprocess.DEVNULL)


def _stop_child(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(CHILD_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def _signals_raise_stop() -> Iterator[None]:
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


async def _local_key(database_url: str, settings: Settings) -> str:
    engine = create_engine(database_url, pool_size=1)
    try:
        return await local_api_key(create_session_factory(engine), settings.data_dir)
    finally:
        await engine.dispose()


def _announce(settings: Settings, api_key: str) -> None:
    url = f"http://{settings.api_host}:{settings.api_port}/graphql"
    print(f"Sibyl is up: GraphQL + GraphiQL at {url} (Ctrl-C stops everything)", flush=True)
    print(
        f"local API key (organisation `local`, kept in {settings.data_dir / 'local-api-key'}):\n"
        f"  {api_key}\n"
        f"  send it as the header `Authorization: Bearer <key>`; e.g. "
        f"SIBYL_API_KEY={api_key} sibyl analyze report.pdf --follow",
        flush=True,
    )
    if settings.allow_unauthenticated:
        print("ALLOW_UNAUTHENTICATED is on: requests without a key act for `local`", flush=True)


def run(settings: Settings) -> int:
    """Run Sibyl until Ctrl-C or until a child process dies; returns the exit code."""
    with _signals_raise_stop(), ExitStack() as stack:
        try:
            env = {**os.environ, **provide_services(settings, stack)}
            print("applying database migrations…", flush=True)
            upgrade(env["DATABASE_URL"])
            api_key = asyncio.run(_local_key(env["DATABASE_URL"], settings))
            children = [
                _spawn(
                    [sys.executable, "-m", "uvicorn", "schema.asgi:app", "--host", settings.api_host,
                     "--port", str(settings.api_port), "--no-access-log", *UVICORN_WS_OPTIONS],
                    env,
                ),
                _spawn([sys.executable, "-m", "workers"], env),
            ]  # fmt: skip
            for child in children:
                stack.callback(_stop_child, child)
            _announce(settings, api_key)
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            print("a Sibyl process exited unexpectedly; stopping the rest", file=sys.stderr, flush=True)
            return 1
        except _Stop:
            print("\nstopping Sibyl…", flush=True)
            return 0
